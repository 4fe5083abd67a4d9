// What the page shows: the state the API read, drawn into the page's sections (a phone's hand, or the laptop's
// board), and the dialogs a card or a seat opens.
import { $, el, page, setDrawn } from "./page.js";
import { COMMANDER_KEY, F, OPENINGS, P, PLAYER_COUNTERS as PC, STEP_ORDER, T, ZONES } from "./i18n.js";
import { call, join } from "./api.js";
import { logLine, logSentence } from "./log.js";
import { openCard } from "./cardacts.js";
import { clarified, full, image, myPlayer, owned, rulings, tokens } from "./cards.js";
import { renderCompanion, renderSideboardTools, renderZones } from "./zones.js";
import { cardCounterName, commanderOf, playerCounterName, rich, stepName, symbolOf } from "./names.js";

export function boardView() { return page.view ? page.view === "board" : (!page.state || !page.state.you) && window.innerWidth >= 900; }

export function render() {
  const state = page.state;
  const board = boardView();
  document.body.classList.toggle("board", board);
  $("switch").textContent = board ? T("My phone") : T("Board");
  document.querySelectorAll(".host-only").forEach(e => { e.hidden = !state.host; });
  const me = myPlayer();
  document.querySelectorAll(".seated-only").forEach(e => { e.hidden = !me; });
  $("game").textContent = state.game;
  $("library").textContent = state.library_count;
  $("sbcount").textContent = state.sideboard.length;
  renderBar(me); $("undo").disabled = !me && !state.host;
  // seat
  $("seat").hidden = !!me;
  $("me").hidden = !me;
  if (me) rich($("me"), F(T("You are {player}; your deck's lands make {colors}."), { player: me.name,
    colors: me.colors ? [...me.colors].map(symbolOf).join("") : T("no color") }));
  $("seats").replaceChildren(...state.players.map(p => { const b = el("button", p.name, { class: p.seated ? "soft" : "good" });
    b.disabled = p.seated; if (p.seated) b.setAttribute("aria-label", F(T("{player}: playing from another phone"), { player: p.name }));
    b.onclick = () => join(p.name); return b; }));
  renderDrawn(me);
  renderOpening(me);
  renderHand(me);
  renderDeck(me);
  renderSideboard(me);
  renderSideboardTools(me);
  renderCompanion(me);
  renderZones(me);
  renderShown(me);
  renderPlayers();
  renderPlayed();
  renderLives(me);
  $("log").replaceChildren(...state.log.concat(page.older).map(logLine));
  $("older").hidden = !(page.older.length ? page.olderMore : state.log_more);
  $("end-box").hidden = !me && !state.host;
  if (page.ending !== null && page.ending !== state.game) closeEnd();  // that game has ended: nothing left to confirm
  if (board) renderJoin();
}

// Each player's public Hell cards by zone: "Anna · battlefield: Hype Train (tapped, +1/+1: 2)"
const ZONE_NAMES = () => ({ [ZONES.BATTLEFIELD]: T("battlefield"), [ZONES.GRAVEYARD]: T("graveyard"), [ZONES.EXILE]: T("exile") });
// a card as a list names it: its name (a face-down card: as that, its name to its controller alone) and states
export function cardLabel(c, controller = null) { return (c.position === undefined ? T("a face-down card") : c.name) + cardState(c, controller); }
export function cardState(c, controller = null) {
  const said = [];
  if (c.face_down && c.position !== undefined) said.push(T("face down"));
  if (c.tapped) said.push(T("tapped"));
  for (const [kind, n] of Object.entries(c.counters || {})) said.push(cardCounterName(kind) + ": " + n);
  if (c.note) said.push(F(T("note: {note}"), { note: c.note }));
  if (c.token) said.push(T("token"));
  if (controller && c.owner && c.owner !== controller) said.push(F(T("owner: {player}"), { player: c.owner }));
  return said.length ? " (" + said.join(", ") + ")" : "";
}
// the tokens a card made that are in play, counted with it: "Food tokens: 2"
function tokensInPlay(c) { return c.tokens_in_play.map(t => F(T("{token} tokens: {count}"), { token: t.name, count: t.count })).join(" · "); }
function renderPlayed() {
  const state = page.state, names = ZONE_NAMES();
  $("played").replaceChildren(...state.players.flatMap(p => Object.entries(p.zones).filter(([, cards]) => cards.length).map(([zone, cards]) => {
    const li = el("li", "", { class: "zone" });
    li.append(el("span", p.name + " · " + names[zone] + ":", { class: "zone-name" }));
    for (const c of cards) {
      const b = el("button", cardLabel(c, p.name), { class: "link card-ref" + (c.tapped ? " tapped" : "") });
      if (c.position === undefined) b.disabled = true;  // another's face-down card: its controller's to handle
      else b.onclick = () => openCard({ ...full(c), controller: p.name }, zone);
      if (!(c.tokens_in_play || []).length) { li.append(b); continue; }
      const made = el("span", "", { class: "made" });  // the card, and under it its tokens in play
      made.append(b, el("span", tokensInPlay(c), { class: "in-play" })); li.append(made);
    }
    return li; })));
  $("played-box").hidden = !state.players.some(p => p.played.length);
}

// life totals, counters, whose turn and step: the same on every phone and the board
const TURN = STEP_ORDER;  // the steps in a turn's order, as the server names them
// a player's counters as the API takes them: a kind, and for commander damage whose commander dealt it
function counterBody(whose, key, delta) {
  const commander = commanderOf(key);
  return commander !== null ? { whose, kind: PC.COMMANDER, from: commander, delta } : { whose, kind: key, delta };
}
function counterKeys(p) {  // every counter a player may have: the kinds, then damage from each other player's commander
  return [PC.POISON, PC.ENERGY, PC.EXPERIENCE, ...page.state.players.filter(o => o.name !== p.name).map(o => COMMANDER_KEY + o.name)];
}
// one counter of one player: its name and count between − and + (one tap each); − only when there is one to take off
function counterRow(p, key, n, tag = "li") {
  const row = el(tag, "", { class: "counter-row" });
  const said = playerCounterName(key);
  const minus = el("button", "−", { class: "soft pm", "aria-label": F(T("{player}: one {kind} less"), { player: p.name, kind: said }) });
  minus.disabled = !n; minus.onclick = () => call("player-counter", counterBody(p.name, key, -1));
  const plus = el("button", "+", { class: "soft pm", "aria-label": F(T("{player}: one {kind} more"), { player: p.name, kind: said }) });
  plus.onclick = () => call("player-counter", counterBody(p.name, key, 1));
  row.append(el("span", said + ": " + n, { class: "counter-name" }), minus, plus);
  return row;
}
let countersOf = null;  // the player whose counters' dialog is open: drawn again at each state
export function openCounters(name) { countersOf = name; renderCounters(); $("counters").showModal(); }
export function closeCounters() { countersOf = null; $("counters").close(); }
function renderCounters() {
  const p = countersOf && page.state.players.find(o => o.name === countersOf);
  if (!p) { if ($("counters").open) closeCounters(); return; }
  $("counters-title").textContent = F(T("{player}'s counters"), { player: p.name });
  $("counters-list").replaceChildren(...counterKeys(p).map(key => counterRow(p, key, (p.counters || {})[key] || 0)));
}
function renderLives(me) {
  const state = page.state, turn = state.turn;
  $("turn").textContent = turn.player ? F(T("{player}'s turn · {step}"), { player: turn.player, step: stepName(turn.step) }) : T("Nobody's turn yet: pick a first player.");
  $("next-step").disabled = $("tools-next-step").disabled = !turn.player;
  $("tools-turn").textContent = $("turn").textContent;
  const actor = !!me || state.host;
  for (const id of ["next-step", "next-turn", "first-player", "roll-6", "roll-20", "flip"]) $(id).hidden = !actor;
  $("life-start-open").hidden = $("add-open").hidden = !state.host;
  $("life-start-open").textContent = F(T("Starting life: {count}…"), { count: state.life_start });
  $("lives").replaceChildren(...state.players.map(p => {
    const li = el("li", "", { class: "life" + (turn.player === p.name ? " turn-now" : "") });
    const name = el("span", "", { class: "life-name" }); name.append(el("b", p.name));
    const counted = Object.entries(p.counters || {}).map(([key, n]) => playerCounterName(key) + " " + n).join(" · ");
    if (counted) name.append(el("span", counted, { class: "board-counters" }));  // the board's, beside the name
    const total = el("span", String(p.life), { class: "life-total", "aria-label": F(T("{player}: {count} life"), { player: p.name, count: p.life }) });
    li.append(name);
    if (actor) {
      const change = (label, delta, said) => { const b = el("button", label, { class: "soft pm", "aria-label": F(said, { player: p.name }) });
        b.onclick = () => call("life", { whose: p.name, delta }); return b; };
      li.append(change("−", -1, T("{player}: one life less")), total, change("+", 1, T("{player}: one life more")));
      const more = el("button", T("Counters…"), { class: "soft counter" }); more.append(el("span", " " + p.name, { class: "sr" }));
      more.onclick = () => openCounters(p.name);
      li.append(more);
    } else li.append(total);
    // the counters a player has, each with its − and + (the others are a tap away, in the dialog)
    const had = Object.entries(p.counters || {});
    if (had.length) {
      const counters = el("div", "", { class: "counters" });
      counters.append(...had.map(([key, n]) => actor ? counterRow(p, key, n, "span") : el("span", playerCounterName(key) + ": " + n, { class: "counter-name" })));
      li.append(counters);
    }
    return li; }));
  renderCounters();
}
// the table's newest line, said in the bar's Table… dialog after a die, a coin or a turn asked there
export function sayLast() { const last = page.state.log[0]; rich($("tools-said"), last ? logSentence(last) : ""); }
export function nextStep() {
  const turn = page.state.turn;
  const at = TURN.indexOf(turn.step);
  if (at === TURN.length - 1) return call("next-turn");
  return call("step", { step: TURN[at + 1] });
}

export function closeEnd() { page.ending = null; $("end-confirm").hidden = true; $("end").hidden = false; }

function renderDrawn(me) {
  const pending = me && me.pending;
  const drawn = page.drawn;
  if (drawn && !(me && me.cards.some(c => c.position === drawn.position))) setDrawn(null);  // played, undone, gone
  const shown = pending || page.drawn;
  $("drawn").hidden = !shown;
  if (!shown) return;
  $("choice").hidden = !pending; $("dismiss-row").hidden = !!pending;
  image($("drawn-img"), shown);
  $("drawn-open").onclick = () => openCard(shown, pending ? ZONES.PENDING : null);
  const missing = shown.missing || [];
  $("drawn-verdict").textContent = T(shown.verdict) + (missing.length ? " — " + T("needs") + " " : "");
  missing.forEach(s => $("drawn-verdict").append(rich(el("span"), symbolOf(s))));
  $("drawn-verdict").className = "verdict " + shown.verdict;
  $("drawn-name").textContent = shown.name;
  rich($("drawn-reminder"), T(shown.reminder));
  rich($("drawn-text"), shown.text || "");
  rulings($("drawn-rulings"), shown);
  clarified($("drawn-clar"), shown);
  tokens($("drawn-tokens"), shown);
}

// The rules deal the opening hand before the game: until a player has theirs, the bar's main button deals it (and
// says so) instead of drawing; then it draws from Hell, greyed while a drawn card waits for take or decline.
// The opening hand is kept before any draw (the server refuses a draw until then): while it is dealt, the bar's
// one action is Keep, in view wherever the page is scrolled, and Draw is not offered.
function renderBar(me) {
  const first = !!me && me.opening === null, deciding = !!me && me.opening === OPENINGS.DEALT;
  const bar = $("draw");
  bar.dataset.action = first ? "opening-hand" : "draw";
  bar.textContent = first ? T("First your opening hand: 2 Hell cards") : T("Draw from Hell");
  bar.disabled = !me || (!first && !!me.pending);
  bar.hidden = deciding; $("keep").hidden = !deciding;
}

function renderOpening(me) {
  $("opening").hidden = !me || me.opening !== OPENINGS.DEALT;  // not dealt yet: the bar deals it
  if (!me) return;
  if (me.opening !== OPENINGS.DEALT) page.ticked = [];
  const ticked = page.ticked;
  $("keep").textContent = ticked.length ? P("Keep, {count} Hell card to the bottom", "Keep, {count} Hell cards to the bottom", ticked.length) : T("Keep, none to the bottom");
}

function renderHand(me) {
  const cards = me ? me.cards : [];
  $("mine-empty").hidden = cards.length > 0;
  $("mine-count").textContent = cards.length ? P("{count} card", "{count} cards", cards.length) : "";
  page.ticked = page.ticked.filter(p => cards.some(c => c.position === p));
  const picking = me && me.opening === OPENINGS.DEALT;
  $("mine").replaceChildren(...cards.map(ref => { const c = full(ref);
    const held = el("div", "", { class: "held" });
    const tile = el("button", "", { class: "tile" + (page.ticked.includes(c.position) ? " ticked" : "") });
    held.append(tile);
    const img = el("img"); image(img, c, "");
    const text = el("span", "", { class: "tile-text" });  // its name and cost at 16 px, its type line beneath
    text.append(el("span", c.name + cardState(c), { class: "name" }));
    if (c.cost) text.append(rich(el("span", "", { class: "cost" }), c.cost));
    if (c.type_line) text.append(rich(el("span", "", { class: "oneline" }), c.type_line));
    tile.append(img, text);
    if (picking) {
      const n = page.ticked.indexOf(c.position);
      tile.setAttribute("aria-pressed", n >= 0 ? "true" : "false");
      tile.append(el("span", " " + T("to the bottom at keep"), { class: "sr" }));
      if (n >= 0) tile.append(el("span", String(n + 1), { class: "order", "aria-hidden": "true" }));
      tile.onclick = () => { page.ticked = n >= 0 ? page.ticked.filter(p => p !== c.position) : [...page.ticked, c.position]; render(); };
    } else {
      tile.onclick = () => openCard(c, ZONES.HAND);  // full screen: its text, rulings and what to do with it
      const play = el("button", T("Play it"), { class: "good play" });
      play.append(el("span", " " + c.name, { class: "sr" }));
      play.onclick = () => call("play", { position: c.position });  // one tap: played, open to everyone
      held.append(play);
    }
    return held; }));
}

function renderDeck(me) {
  const cards = me ? me.deck : [];
  $("deck-hell").hidden = !cards.length;
  $("deck-hell-list").replaceChildren(...cards.map(ref => { const c = full(ref);
    const b = el("button", c.name, { class: "link" }); b.onclick = () => openCard(c, ZONES.DECK); const li = el("li"); li.append(b); return li; }));
}

const SIDEBOARD_SHOWN = 8;  // on the board (table.css hides the rest): its top cards, and how many are below them
function renderSideboard(me) {
  const sideboard = page.state.sideboard;
  $("sb-empty").hidden = sideboard.length > 0;
  const more = sideboard.length - SIDEBOARD_SHOWN;
  $("sb-more").hidden = more <= 0;
  $("sb-more").textContent = more > 0 ? P("and {count} more card below them", "and {count} more cards below them", more) : "";
  $("play-top").disabled = !me || !sideboard.length;
  $("sideboard").replaceChildren(...sideboard.map((ref, i) => { const c = full(ref);
    const li = el("li", "", { class: i === 0 ? "top" : "" });
    const tile = el("button", "", { class: "tile" });
    if (i === 0) tile.append(el("span", T("top:"), { class: "sr" }));
    if (c.hell) { const img = el("img"); image(img, c, ""); tile.append(img); }
    tile.append(el("span", (i === 0 ? "▶ " : "") + c.name, { class: "name" }), el("span", owned(c), { class: "small" }));
    tile.onclick = () => openCard(c, ZONES.SIDEBOARD, i === 0);
    li.append(tile); return li; }));
}


function renderPlayers() {
  const state = page.state;
  $("players").replaceChildren(...state.players.map(p => {
    const li = el("li", "", state.turn.player === p.name ? { class: "turn-now" } : {});
    const who = el("span", ""); who.append(el("span", "", { class: "dot" + (p.online ? " on" : ""), "aria-hidden": "true" }),
      el("b", p.name), " · " + P("{count} Hell card", "{count} Hell cards", p.card_count));
    const how = el("span", (p.online ? T("connected") : p.seated ? T("not connected") : T("no phone yet")) + (p.waiting ? " · " + T("deciding") : ""), { class: "small" });
    how.append(el("span", " · ", { class: "board-only" }), el("span", P("{count} life", "{count} life", p.life), { class: "board-only life-said" }));  // the board's first screen
    const counted = Object.entries(p.counters || {}).map(([key, n]) => playerCounterName(key) + " " + n).join(" · ");
    if (counted) how.append(el("span", " · " + counted, { class: "board-only" }));  // poison and the rest, in view too
    if (p.companion) how.append(el("span", " · " + F(p.companion_cast ? T("companion {card}: cast") : T("companion {card}"), { card: p.companion.name })));
    li.append(who, how);
    if (state.host && p.seated) {  // one button beside the name: the seat's choices, and what each does, in a dialog
      const seat = el("button", T("Seat…"), { class: "soft" }); seat.append(el("span", " " + p.name, { class: "sr" }));
      seat.onclick = () => seatMenu(p.name); li.append(seat); }
    return li; }));
}

// An address to type breaks after "://" and before the port, not inside the port or a number of the host.
function showAddress(target, url) {
  target.replaceChildren(...(url.match(/^:\/\/|[^]+?(?::\/\/|(?=:\d|\/\?|$))/g) || [url]).flatMap((part, i) => i ? [document.createElement("wbr"), part] : [part]));  // its pieces matched: a split after "://" needs a lookbehind, which Safari before 16.4 cannot even load
}

function renderJoin() {
  if (!$("join-qr").getAttribute("src")) $("join-qr").src = "qr.svg";
  showAddress($("join-url"), page.state.join_url);  // the server's address, the one its QR code encodes
}

function seatMenu(name) {
  $("seat-menu-title").textContent = F(T("{player}'s seat"), { player: name });
  $("seat-new-said").textContent = F(T("Seat {player} on a new phone? The phone {player} uses now is refused from then on."), { player: name });
  $("seat-free-said").textContent = F(T("Release {player}'s seat? Their phone is refused until they pick their name again."), { player: name });
  $("seat-new").onclick = () => { $("seat-menu").close(); reseatPlayer(name); };
  $("seat-free").onclick = () => { $("seat-menu").close(); call("host/release", { player: name }); };
  $("seat-menu").showModal();
}

async function reseatPlayer(name) {
  const answer = await call("host/reseat", { player: name });
  if (!answer) return;
  $("reseat-title").textContent = F(T("{player}: scan this with the new phone"), { player: name });
  $("reseat-qr").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(answer.qr);
  $("reseat-qr").alt = F(T("QR code that seats {player} on a new phone"), { player: name });
  showAddress($("reseat-url"), answer.url);
  $("reseat").showModal();
}


// cards the others showed the table (revealed from a hand), until this page dismisses each
function renderShown(me) {
  const shown = page.state.players.filter(p => !me || p.name !== me.name)
    .flatMap(p => (p.revealed || []).map(c => ({ ...full(c), who: p.name }))).filter(c => !page.dismissed.has(c.id));
  $("shown-box").hidden = !shown.length;
  $("shown").replaceChildren(...shown.map(c => { const li = el("li");
    const b = el("button", F(T("{player} shows {card}"), { player: c.who, card: c.name }), { class: "link" });
    b.onclick = () => openCard(c, null);
    const done = el("button", T("Dismiss"), { class: "soft" }); done.append(el("span", " " + c.name, { class: "sr" }));
    done.onclick = () => { page.dismissed.add(c.id); render(); };
    li.append(b, done); return li; }));
}
