// A card full screen: its text, its format rulings and clarification, its moments, and what may be done with it
// where it is: each a button calling the API (api/<action>), one tap from the dialog. Any card of the open
// sideboard may be moved by any player (a card's effect says so: Arabian Dunes, Need, Sidecaster Mage); a card in
// play or in a hand may go into a zone a Hell card created; a library takes a card N-th from its top.
import { $, el, page } from "./page.js";
import { CARD_COUNTERS as CC, DESTINATIONS as TO, ENDS, F, MADE_ZONES, T, ZONES } from "./i18n.js";
import { call } from "./api.js";
import { cardCounterName, rich } from "./names.js";
import { askNumber, askText, clarified, image, momentList, myPlayer, owned, rulings, tokens } from "./cards.js";

const OPEN = [ZONES.BATTLEFIELD, ZONES.GRAVEYARD, ZONES.EXILE];

// `zone`: where the card is (a created zone's cards: ZONES.MADE, with c.made its id); the sideboard's `top` may be
// played as if in hand; a card just drawn (zone null) has its buttons beside it instead
export function openCard(c, zone, top = false) {
  $("dlg-name").textContent = c.name;
  $("dlg-img").hidden = !c.hell; if (c.hell) image($("dlg-img"), c);
  rich($("dlg-text"), c.text || "");
  rulings($("dlg-rulings"), c);
  clarified($("dlg-clar"), c);
  momentList($("dlg-moments"), c.moments || []);
  tokens($("dlg-tokens"), c);
  $("dlg-owner").textContent = [zone === ZONES.SIDEBOARD || OPEN.includes(zone) || zone === ZONES.MADE ? owned(c) : "",
    c.note ? F(T("note: {note}"), { note: c.note }) : "", c.face_down ? T("face down: its face is yours alone") : "",
    c.token ? T("a token card") : ""].filter(Boolean).join(" · ");
  // the first moves above the card (in the dialog's first screen), the rarer ones beneath its text: each one tap
  const acts = [], more = [];
  const push = (b, rare) => (rare ? more : acts).push(b);
  const act = (action, label, extra, style = "soft", aria = "", rare = false) => {
    const b = el("button", label, { class: style, ...(aria ? { "aria-label": aria } : {}) });
    b.onclick = async () => { $("card-dialog").close(); await call(action, extra); }; push(b, rare); };
  const ask = (label, run, rare = true) => { const b = el("button", label, { class: "soft" });
    b.onclick = async () => { $("card-dialog").close(); await run(); }; push(b, rare); };
  const me = myPlayer(), host = page.state.host, actor = !!me || host;
  const move = (label, to, style = "soft", extra = {}, rare = false) => act("move", label, { position: c.position, to, ...extra }, style, "", rare);
  const nth = label => ask(label, async () => { const at = await askNumber(F(T("{card}: how many cards from the top?"), { card: c.name }));
    if (at) await call("move", { position: c.position, to: TO.LIBRARY_AT, at }); });
  if (zone === ZONES.BATTLEFIELD && actor) battlefieldActs(c, act);
  if (zone === ZONES.BATTLEFIELD && (me && me.name === c.controller || host)) tokenActs(c, act);
  if (zone === ZONES.HAND && me) { move(T("Play it"), TO.BATTLEFIELD, "good"); move(T("Discard"), TO.GRAVEYARD);
    if (c.hell) act("reveal", T("Reveal it to the table"), { position: c.position }, "soft", "", true); }
  if ((OPEN.includes(zone) || zone === ZONES.MADE) && actor) {
    for (const [to, label] of [[TO.BATTLEFIELD, T("→ battlefield")], [TO.GRAVEYARD, T("→ graveyard")], [TO.EXILE, T("→ exile")]])
      if (to !== zone) move(label, to);
  }
  if ((zone === ZONES.GRAVEYARD || zone === ZONES.EXILE || zone === ZONES.MADE) && actor && !c.face_down)
    counterActs(c, act, [CC.TIME, CC.PLUS], true);
  if ((zone === ZONES.HAND || OPEN.includes(zone) || zone === ZONES.MADE) && actor) {
    if (zone !== ZONES.HAND) move(T("→ its owner's hand"), TO.HAND);
    else move(T("→ exile"), TO.EXILE);
    move(T("→ its owner's library: top"), TO.LIBRARY_TOP); move(T("→ its owner's library: bottom"), TO.LIBRARY_BOTTOM);
    move(T("→ sideboard (leaves the game)"), TO.SIDEBOARD);
    nth(T("→ its owner's library: N-th from the top…"));
    move(T("→ shuffled into its owner's library"), TO.LIBRARY_SHUFFLED, "soft", {}, true);
    zoneActs(c, zone, move);
  }
  if (zone === ZONES.DECK && me) deckActs(c, move);
  if (zone === ZONES.SIDEBOARD) sideboardActs(c, top, me, act, move, nth);
  if (zone !== ZONES.SIDEBOARD && zone !== null && actor) stateActs(c, zone, me, act, ask, move);
  $("dlg-acts").replaceChildren(...acts);
  $("dlg-more").replaceChildren(...more); $("dlg-more-box").hidden = !more.length;
  $("card-dialog").showModal();
  $("card-dialog").scrollTop = 0; $("dlg-name").focus();  // the card from its top, not scrolled to its buttons
}

// A Hell card in its owner's library is a card like any: drawn, milled, exiled (face down too), played
function deckActs(c, move) {
  move(T("Draw it into my hand"), TO.HAND, "good");
  move(T("→ graveyard (milled)"), TO.GRAVEYARD); move(T("→ exile"), TO.EXILE);
  move(T("→ battlefield"), TO.BATTLEFIELD); move(T("→ sideboard (leaves the game)"), TO.SIDEBOARD);
  move(T("→ exile face down"), TO.EXILE, "soft", { face_down: true }, true);
}

// A card's states, beneath its text: a note, face down or up, given to another player, under another's control
function stateActs(c, zone, me, act, ask, move) {
  const mine = !c.controller && zone !== ZONES.BATTLEFIELD || (me && (c.controller === me.name || !c.controller));
  if (mine || page.state.host && zone !== ZONES.HAND) ask(c.note ? T("Change the note…") : T("Note…"), async () => {
    const note = await askText(F(T("A note on {card}"), { card: c.name }), c.note || "");
    if (note !== null) await call("note", { position: c.position, note }); });
  if (zone === ZONES.HAND && me) {
    move(T("Play it face down"), TO.BATTLEFIELD, "soft", { face_down: true }, true);
    move(T("→ exile face down"), TO.EXILE, "soft", { face_down: true }, true);
    // into this game's zones, and into one the card itself names (a hidden agenda's command zone comes with it)
    const zones = new Set([...(page.state.zones || []).map(z => z.id), ...(c.zones || []).map(z => z.id)]);
    for (const id of zones) move(F(T("→ the {zone}, face down"), { zone: MADE_ZONES[id] || id }), TO.ZONE, "soft", { zone: id, face_down: true }, true);
  }
  if (c.face_down && me && (c.controller || me.name) === me.name) act("face-up", T("Turn it face up"), { position: c.position }, "good", "", true);
  const others = page.state.players.filter(p => !me || p.name !== me.name);
  if (zone === ZONES.HAND || OPEN.includes(zone) || zone === ZONES.MADE) for (const p of others) {  // given: theirs to see
    move(F(T("→ {player}'s hand"), { player: p.name }), TO.HAND, "soft", { whose: p.name }, true);
    move(F(T("→ {player}'s library: top"), { player: p.name }), TO.LIBRARY_TOP, "soft", { whose: p.name }, true);
    move(F(T("→ {player}'s library: bottom"), { player: p.name }), TO.LIBRARY_BOTTOM, "soft", { whose: p.name }, true);
  }
  if (me && (zone === ZONES.BATTLEFIELD || zone === ZONES.HAND || zone === ZONES.GRAVEYARD || zone === ZONES.EXILE))
    act("token-card", T("Make a token copy of it"), { name: c.name, to: TO.BATTLEFIELD }, "soft", "", true);  // a token card, its name
  if (zone === ZONES.BATTLEFIELD) for (const p of page.state.players.filter(o => o.name !== c.controller))
    act("control", F(T("{player} gains control of it"), { player: p.name }), { position: c.position, whose: p.name }, "soft", "", true);
}

function battlefieldActs(c, act) {
  act("tap", c.tapped ? T("Untap") : T("Tap"), { position: c.position, tapped: !c.tapped }, "good");
  counterActs(c, act, [CC.PLUS, CC.MINUS, CC.CHARGE, CC.LOYALTY, CC.TIME]);
}

// Counters of these kinds on a face-up card (time counters in exile: suspend), each up, and down when one is there
function counterActs(c, act, kinds, rare = false) {
  for (const kind of kinds) {
    const said = cardCounterName(kind), n = (c.counters || {})[kind] || 0;
    act("card-counter", "+ " + said + (n ? " (" + n + ")" : ""), { position: c.position, kind, delta: 1 }, "soft", F(T("one {kind} counter more on {card}"), { kind: said, card: c.name }), rare);
    if (n) act("card-counter", "− " + said, { position: c.position, kind, delta: -1 }, "soft", F(T("one {kind} counter less on {card}"), { kind: said, card: c.name }), rare);
  }
}

function tokenActs(c, act) {  // its tokens, counted by its controller
  for (const t of c.tokens || []) {
    act("tokens", F(T("+1 token: {token}"), { token: t.name }), { position: c.position, token: t.id, delta: 1 });
    if ((c.tokens_in_play || []).some(n => n.id === t.id)) act("tokens", F(T("−1 token: {token}"), { token: t.name }), { position: c.position, token: t.id, delta: -1 });
  }
}

// into each zone this game's Hell cards created (a player's own one: the card's owner's, as the card's text says
// "its owner's"; the table's one)
function zoneActs(c, zone, move) {
  for (const z of page.state.zones || []) {
    if (zone === ZONES.MADE && c.made === z.id) continue;
    move(F(T("→ the {zone}"), { zone: MADE_ZONES[z.id] || z.name }), TO.ZONE, "soft", { zone: z.id });
  }
}

// The open sideboard: the top card is played as if in hand; any card an effect names goes to the taker's zones
function sideboardActs(c, top, me, act, move, nth) {
  const host = page.state.host;
  if (me) {
    if (top) act("play-sideboard", T("Play it"), {}, "good");
    else act("play-sideboard", T("Cast it from the sideboard (an effect lets you)"), { position: c.position }, "good");
    move(T("→ my hand"), TO.HAND);
    move(T("→ my library: top"), TO.LIBRARY_TOP); move(T("→ my library: bottom"), TO.LIBRARY_BOTTOM);
    nth(T("→ my library: N-th from the top…"));
    move(T("→ my graveyard"), TO.GRAVEYARD); move(T("→ exile"), TO.EXILE); move(T("→ battlefield"), TO.BATTLEFIELD);
    for (const z of page.state.zones || []) move(F(T("→ the {zone}"), { zone: MADE_ZONES[z.id] || z.name }), TO.ZONE, "soft", { zone: z.id });
    if (c.companion && !(me.companion && me.companion.position === c.position))
      act("companion", T("Declare it my companion"), { position: c.position });
  }
  if (c.hell && !c.owner && (me || host)) {  // "put into its owner's library"
    act("to-hell-library", T("Hell library: top"), { position: c.position, end: ENDS.TOP });
    act("to-hell-library", T("Hell library: bottom"), { position: c.position, end: ENDS.BOTTOM });
  }
}
