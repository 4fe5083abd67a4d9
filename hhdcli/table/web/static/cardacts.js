// A card full screen: its text, its format rulings and clarification, its moments, and what may be done with it
// where it is: each a button calling the API (api/<action>), one tap from the dialog. Any card of the open
// sideboard may be moved by any player (a card's effect says so: Arabian Dunes, Need, Sidecaster Mage); a card in
// play or in a hand may go into a zone a Hell card created; a library takes a card N-th from its top.
import { $, el, page } from "./page.js";
import { CARD_COUNTERS as CC, DESTINATIONS as TO, ENDS, F, MADE_ZONES, T, ZONES } from "./i18n.js";
import { call } from "./api.js";
import { cardCounterName, rich } from "./names.js";
import { askNumber, clarified, image, momentList, myPlayer, owned, rulings, tokens } from "./cards.js";

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
  $("dlg-owner").textContent = zone === ZONES.SIDEBOARD || OPEN.includes(zone) || zone === ZONES.MADE ? owned(c) : "";
  const acts = [];
  const act = (action, label, extra, style = "soft", aria = "") => {
    const b = el("button", label, { class: style, ...(aria ? { "aria-label": aria } : {}) });
    b.onclick = async () => { $("card-dialog").close(); await call(action, extra); }; acts.push(b); };
  const ask = (label, run) => { const b = el("button", label, { class: "soft" });
    b.onclick = async () => { $("card-dialog").close(); await run(); }; acts.push(b); };
  const me = myPlayer(), host = page.state.host, actor = !!me || host;
  const move = (label, to, style = "soft", extra = {}) => act("move", label, { position: c.position, to, ...extra }, style);
  const nth = label => ask(label, async () => { const at = await askNumber(F(T("{card}: how many cards from the top?"), { card: c.name }));
    if (at) await call("move", { position: c.position, to: TO.LIBRARY_AT, at }); });
  if (zone === ZONES.BATTLEFIELD && actor) battlefieldActs(c, act);
  if (zone === ZONES.BATTLEFIELD && (me && me.name === c.controller || host)) tokenActs(c, act);
  if (zone === ZONES.HAND && me) { move(T("Play it"), TO.BATTLEFIELD, "good"); move(T("Discard"), TO.GRAVEYARD);
    if (c.hell) act("reveal", T("Reveal it to the table"), { position: c.position }); }
  if ((OPEN.includes(zone) || zone === ZONES.MADE) && actor) {
    for (const [to, label] of [[TO.BATTLEFIELD, T("→ battlefield")], [TO.GRAVEYARD, T("→ graveyard")], [TO.EXILE, T("→ exile")]])
      if (to !== zone) move(label, to);
  }
  if ((zone === ZONES.HAND || OPEN.includes(zone) || zone === ZONES.MADE) && actor) {
    if (zone !== ZONES.HAND) move(T("→ its owner's hand"), TO.HAND);
    else move(T("→ exile"), TO.EXILE);
    move(T("→ its owner's library: top"), TO.LIBRARY_TOP); move(T("→ its owner's library: bottom"), TO.LIBRARY_BOTTOM);
    nth(T("→ its owner's library: N-th from the top…"));
    move(T("→ sideboard (leaves the game)"), TO.SIDEBOARD);
    zoneActs(c, zone, move);
  }
  if (zone === ZONES.DECK && me) move(T("Draw it into my hand"), TO.HAND, "good");
  if (zone === ZONES.SIDEBOARD) sideboardActs(c, top, me, act, move, nth);
  $("dlg-acts").replaceChildren(...acts);
  $("card-dialog").showModal();
  $("card-dialog").scrollTop = 0; $("dlg-name").focus();  // the card from its top, not scrolled to its buttons
}

function battlefieldActs(c, act) {
  act("tap", c.tapped ? T("Untap") : T("Tap"), { position: c.position, tapped: !c.tapped }, "good");
  for (const kind of [CC.PLUS, CC.MINUS, CC.CHARGE, CC.LOYALTY]) {  // each kind up, and down when there is one to take off
    const said = cardCounterName(kind), n = (c.counters || {})[kind] || 0;
    act("card-counter", "+ " + said + (n ? " (" + n + ")" : ""), { position: c.position, kind, delta: 1 }, "soft", F(T("one {kind} counter more on {card}"), { kind: said, card: c.name }));
    if (n) act("card-counter", "− " + said, { position: c.position, kind, delta: -1 }, "soft", F(T("one {kind} counter less on {card}"), { kind: said, card: c.name }));
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
