// What Hell cards ask of the table beyond drawing: the open sideboard's shuffle and its random cards, Hell cards at
// random into a player's hand, companions, the zones Hell cards create (each shown with its cards or their count
// on every page, a player's own deck handled from their phone), the moments the format names (the phone says
// what happens now), and each card's clarification.
import { $, el, page } from "./page.js";
import { DESTINATIONS as TO, F, MADE_ZONES, P, T, ZONES } from "./i18n.js";
import { call } from "./api.js";
import { openCard } from "./cardacts.js";
import { askNumber, clarified, full, momentList, myPlayer } from "./cards.js";

// --- a card's clarification and moments -----------------------------------------------------------------------

export function showMoments(card, now, held) {
  if (!now || !now.length) return;
  $("moment-title").textContent = card.name;
  momentList($("moment-list"), (card.moments || []).filter(m => now.includes(m.moment)));
  $("moment-now").textContent = T("This happens now.");
  clarified($("moment-clar"), card);
  $("moment-reveal").hidden = !held;
  $("moment-reveal").onclick = async () => { $("moment").close(); await call("reveal", { position: card.position }); };
  // "add … to your draft pool": the format's draft pool is the sideboard, so the cards it names go on top of it
  const pool = (card.moments || []).some(m => now.includes(m.moment) && /draft pool/i.test(m.words));
  $("moment-pool").hidden = !pool;
  $("moment-pool-send").onclick = async () => { const name = $("moment-pool-name").value.trim();
    if (!name) { $("moment-pool-name").focus(); return; }
    if (await call("own-card", { name })) $("moment-now").textContent = F(T("{card}: on top of the sideboard"), { card: name }); };
  $("moment").showModal();
}

// --- the sideboard: its counts, shuffle and random cards --------------------------------------------------------

export function renderSideboardTools(me) {
  const sideboard = page.state.sideboard, actor = !!me || page.state.host;
  const nonbasic = sideboard.filter(c => !c.basic).length;
  $("sb-nonbasic").textContent = sideboard.length ? P("{count} nonbasic card", "{count} nonbasic cards", nonbasic) : "";
  $("sb-tools").hidden = !actor || !sideboard.length;
}

export async function randomFromSideboard() {
  const count = await askNumber(T("How many cards at random from the sideboard?"), 1, 20, true);
  if (!count) return;
  const answer = await call("sideboard/random", { count, nonbasic: $("number-nonbasic").checked });
  if (answer) showRevealed(T("At random from the sideboard (shuffled first)"), answer.cards, ZONES.SIDEBOARD);
}

function showRevealed(title, cards, zone) {
  $("revealed-title").textContent = title;
  $("revealed-list").replaceChildren(...cards.map((c, i) => { const li = el("li");
    const b = el("button", c.name, { class: "link" });
    b.onclick = () => { $("revealed").close(); openCard(c, zone, zone === ZONES.SIDEBOARD && i === 0); };
    li.append(b); return li; }));
  $("revealed").showModal();
}

// Hell cards at random into a player's hand (Goblin Draft Guide, Faithful Looting): whose, then how many
export function giveRandomHellCards() {
  const me = myPlayer();
  $("gift-whose").replaceChildren(...page.state.players.map(p => { const o = el("option", p.name, { value: p.name });
    if (me && p.name === me.name) o.selected = true; return o; }));
  $("gift-count").value = 1;
  $("gift").showModal();
}
export async function sendGift(e) {
  e.preventDefault();
  const answer = await call("random-hell-card", { whose: $("gift-whose").value, count: Number($("gift-count").value) });
  if (answer) $("gift").close();
}

// --- companions --------------------------------------------------------------------------------------------

export function renderCompanion(me) {
  const mine = me && me.companion;
  $("companion-row").hidden = !mine;
  if (!mine) return;
  $("companion-said").textContent = F(T("Your companion: {card}"), { card: mine.name });
  $("companion-cast").hidden = me.companion_cast;
  $("companion-cast").textContent = F(T("Cast {card} from outside the game (once a game)"), { card: mine.name });
}

// --- the zones Hell cards create ------------------------------------------------------------------------------

const zoneName = z => MADE_ZONES[z.id] || z.name;
function holderName(z, h) { return h.player === null ? zoneName(z) : F(T("{player}'s {zone}"), { player: h.player, zone: zoneName(z) }); }

export function renderZones(me) {
  const zones = page.state.zones || [];
  $("zones-box").hidden = !zones.length;
  $("zones").replaceChildren(...zones.flatMap(z => z.holders.map(h => {
    const li = el("li", "", { class: "zone" });
    li.append(el("span", holderName(z, h) + ": " + P("{count} card", "{count} cards", h.count), { class: "zone-name" }));
    for (const ref of h.cards) {
      const c = full({ ...ref, made: z.id });
      const b = el("button", c.position === undefined ? T("a face-down card") : c.name + (c.note ? " (" + F(T("note: {note}"), { note: c.note }) + ")" : ""), { class: "link card-ref" });
      if (c.position === undefined) b.disabled = true; else b.onclick = () => openCard(c, ZONES.MADE);
      li.append(b);
    }
    const mine = h.player === null ? !!me || page.state.host : me && me.name === h.player;
    if (mine || z.open) {  // what a zone's cards may do: one tap here, one in the dialog
      const more = el("button", T("Zone…"), { class: "soft" }); more.append(el("span", " " + holderName(z, h), { class: "sr" }));
      more.onclick = () => openZone(z, h, mine); li.append(more);
    }
    return li; })));
  if (zoneOpen) { const z = zones.find(o => o.id === zoneOpen.zone); const h = z && z.holders.find(o => o.player === zoneOpen.whose);
    if (h) fillZone(z, h, zoneOpen.mine); else { zoneOpen = null; $("zone").close(); } }
}

let zoneOpen = null;  // the zone whose dialog is open: drawn again at each state
function openZone(z, h, mine) { zoneOpen = { zone: z.id, whose: h.player, mine }; fillZone(z, h, mine); $("zone").showModal(); }
export function closeZone() { zoneOpen = null; $("zone").close(); }

function fillZone(z, h, mine) {
  $("zone-title").textContent = holderName(z, h);
  $("zone-count").textContent = P("{count} card", "{count} cards", h.count) + (z.well ? " · " + F(T("limitless: its top is always a new {card}"), { card: z.well }) : "");
  const body = { zone: z.id, ...(h.player ? { whose: h.player } : {}) };
  const acts = [];
  const act = (label, action, extra = {}, style = "soft") => { const b = el("button", label, { class: style });
    b.onclick = async () => { const answer = await call(action, { ...body, ...extra });
      if (answer && answer.names) $("zone-said").textContent = F(T("Revealed: {names}"), { names: answer.names.join(", ") }); };
    acts.push(b); };
  if (mine && z.ordered) {
    for (const [to, label] of [[TO.BATTLEFIELD, T("Top card → battlefield")], [TO.HAND, T("Top card → hand")], [TO.GRAVEYARD, T("Top card → graveyard")]])
      act(label, "zone/take", { to }, to === TO.BATTLEFIELD ? "good" : "soft");
    if (!z.well) { act(T("Shuffle"), "zone/shuffle"); act(T("Reveal the top card"), "zone/reveal", { count: 1 });
      // Big Money reveals from the top until a Plains; Shell Game's opponent guesses which card is the Plains
      asked(T("Reveal the top cards…"), T("How many from the top?"), n => ({ count: n }));
      asked(T("Reveal the N-th card…"), T("Which card, counted from the top?"), n => ({ at: n })); }
  }
  function asked(label, question, extra) {  // a number asked first, then the reveal
    const b = el("button", label, { class: "soft" });
    b.onclick = async () => { const n = await askNumber(question, 1, Math.max(h.count, 1)); if (!n) return;
      const answer = await call("zone/reveal", { ...body, ...extra(n) });
      if (answer && answer.names) $("zone-said").textContent = F(T("Revealed: {names}"), { names: answer.names.join(", ") }); };
    acts.push(b);
  }
  $("zone-acts").replaceChildren(...acts);
  $("zone-cards").replaceChildren(...h.cards.map(ref => { const c = full({ ...ref, made: z.id }); const li = el("li");
    const b = el("button", c.name, { class: "link" }); b.onclick = () => { closeZone(); openCard(c, ZONES.MADE); };
    li.append(b); return li; }));
  $("zone-add-row").hidden = !mine;
  $("zone-add").onclick = async () => { const name = $("zone-add-name").value.trim(); if (!name) { $("zone-add-name").focus(); return; }
    if (await call("zone/add", { ...body, name })) $("zone-add-name").value = ""; };
}

// a token card made by name (a copy a card puts into a hand, a token made off the battlefield): where, whose
export function makeTokenCard() {
  const me = myPlayer();
  $("token-to").replaceChildren(...[[TO.HAND, T("into a hand")], [TO.BATTLEFIELD, T("onto the battlefield")], [TO.GRAVEYARD, T("into a graveyard")],
    [TO.EXILE, T("into exile")]].map(([value, label]) => el("option", label, { value })));
  $("token-whose").replaceChildren(...page.state.players.map(p => { const o = el("option", p.name, { value: p.name });
    if (me && p.name === me.name) o.selected = true; return o; }));
  $("token-dialog").showModal(); $("token-name").focus();
}
export async function sendToken(e) {
  e.preventDefault();
  const name = $("token-name").value.trim(); if (!name) { $("token-name").focus(); return; }
  if (await call("token-card", { name, to: $("token-to").value, whose: $("token-whose").value })) { $("token-name").value = ""; $("token-dialog").close(); }
}
