// The log, in sentences: "Anna drew a Hell card" (which one is hers to know), "Ben declined Hype Train". The
// actions are named as the server's Action enum names them (ACTIONS, from the bootstrap).
import { el, page } from "./page.js";
import { rich, stepName, symbolOf } from "./names.js";
import { ACTIONS as A, CARD_COUNTERS as CC, COINS, DESTINATIONS as TO, ENDS, F, MADE_ZONES, MOMENTS, P, PLAYER_COUNTERS as PC, T, sentence } from "./i18n.js";

// a card put on top of a library or at its bottom, said by the log's entry (its `end`, End's)
const atEnd = (d, top, bottom) => d.end === ENDS.BOTTOM ? bottom : top;
// counters or life put on or taken off, said by the entry's `delta`
const bySign = (d, more, less) => d.delta > 0 ? more : less;

const SAY = {
  [A.DRAW]: (d) => d.name ? T("{player} drew {card}") : T("{player} drew a Hell card"),
  [A.TAKE]: (d) => d.name ? T("{player} took {card}") : T("{player} took the card drawn"),
  [A.DECLINE]: () => T("{player} declined {card}: on top of the sideboard"),
  [A.OPENING_HAND]: () => T("{player} drew an opening hand"),
  [A.MULLIGAN]: () => T("{player} took a mulligan"),
  [A.KEEP]: (d, v) => P("{player} kept, {count} Hell card to the bottom", "{player} kept, {count} Hell cards to the bottom", v.count),
  [A.PLAY]: () => T("{player} played {card}"),
  [A.PLAY_FROM_SIDEBOARD]: () => T("{player} played {card} from the top of the sideboard"),
  [A.TO_SIDEBOARD]: () => T("{player} sent {card} to the sideboard"),
  [A.OWN_CARD_TO_SIDEBOARD]: () => T("{player} sent {card} of their deck to the sideboard"),
  [A.TO_HELL_LIBRARY]: (d) => atEnd(d, T("{player} put {card} on top of the Hell library"), T("{player} put {card} at the bottom of the Hell library")),
  [A.DISCARD]: () => T("{player} discarded {card}"),
  [A.TO_BATTLEFIELD]: () => T("{player} put {card} onto the battlefield"),
  [A.TO_GRAVEYARD]: () => T("{player} put {card} into the graveyard"),
  [A.TO_EXILE]: () => T("{player} exiled {card}"),
  [A.TO_HAND]: (d) => d.whose ? (d.name ? T("{player} put {card} into {whose}'s hand") : T("{player} put a Hell card into {whose}'s hand"))
                  : d.name ? T("{player} returned {card} to its owner's hand") : T("{player} drew a Hell card from their library"),
  [A.TO_LIBRARY]: (d) => d.whose ? (d.name ? T("{player} put {card} into {whose}'s library") : T("{player} put a Hell card into {whose}'s library"))
                      : d.shuffled ? (d.name ? T("{player} shuffled {card} into its owner's library") : T("{player} shuffled a Hell card into their library"))
                      : d.at ? (d.name ? T("{player} put {card} into its owner's library, {at} from the top") : T("{player} put a Hell card into their library, {at} from the top"))
                      : d.name ? atEnd(d, T("{player} put {card} on top of its owner's library"), T("{player} put {card} at the bottom of its owner's library"))
                                : T("{player} put a Hell card into their library"),
  [A.FROM_SIDEBOARD]: (d) => fromSideboard(d),
  [A.SHUFFLE_SIDEBOARD]: () => T("{player} shuffled the sideboard"),
  [A.RANDOM_FROM_SIDEBOARD]: () => T("{player} shuffled the sideboard and revealed at random: {names}"),
  [A.RANDOM_HELL_CARD]: (d, v) => d.names ? P("{player} put {count} random Hell card into {whose}'s hand: {names}", "{player} put {count} random Hell cards into {whose}'s hand: {names}", v.count)
                                          : P("{player} put {count} random Hell card into {whose}'s hand", "{player} put {count} random Hell cards into {whose}'s hand", v.count),
  [A.COMPANION]: () => T("{player} declared {card} their companion"),
  [A.CAST_COMPANION]: () => T("{player} cast their companion {card} from outside the game"),
  [A.REVEAL]: () => T("{player} revealed {card}"),
  [A.TO_ZONE]: (d) => d.name ? intoZone(d) : T("{player} put a Hell card into their {zone}"),
  [A.ZONE_ADD]: (d) => intoZone(d),
  [A.SHUFFLE_ZONE]: (d) => d.whose ? T("{player} shuffled {whose}'s {zone}") : T("{player} shuffled the {zone}"),
  [A.REVEAL_ZONE]: (d) => d.whose ? T("{player} revealed from {whose}'s {zone}: {names}") : T("{player} revealed from the {zone}: {names}"),
  [A.NOTE]: (d) => d.name ? (d.note ? T("{player} noted on {card}: {note}") : T("{player} took the note off {card}"))
                      : d.face_down ? T("{player} noted on a face-down card") : T("{player} noted on a card of theirs"),
  [A.FACE_DOWN]: (d) => d.name ? T("{player} put {card} face down {where}") : T("{player} put a card face down {where}"),
  [A.FACE_UP]: () => T("{player} turned {card} face up"),
  [A.CONTROL]: (d) => d.name ? T("{player}: {whose} now controls {card}") : T("{player}: {whose} now controls a face-down card"),
  [A.TOKEN_CARD]: () => T("{player} made a token card, {card}, {where}"),
  [A.TAKE_FROM_ZONE]: (d) => !d.name ? T("{player} took a card from {whose}'s {zone}: {where}")
                       : d.whose ? T("{player} took {card} from {whose}'s {zone}: {where}") : T("{player} took {card} from the {zone}: {where}"),
  [A.TAP]: () => T("{player} tapped {card}"),
  [A.UNTAP]: () => T("{player} untapped {card}"),
  [A.CARD_COUNTER]: (d, v) => bySign(d, cardCounterOn(d.kind, v.delta), cardCounterOff(d.kind, v.delta)),
  [A.TOKENS]: (d, v) => bySign(d, P("{player}: {count} {token} token of {card} came into play (now {total})", "{player}: {count} {token} tokens of {card} came into play (now {total})", v.delta),
                                  P("{player}: {count} {token} token of {card} left play (now {total})", "{player}: {count} {token} tokens of {card} left play (now {total})", v.delta)),
  [A.LIFE]: (d) => bySign(d, T("{player}: {whose} gains {delta} life (now {count})"), T("{player}: {whose} loses {delta} life (now {count})")),
  [A.PLAYER_COUNTER]: (d, v) => bySign(d, playerCounterOn(d.kind, v.delta), playerCounterOff(d.kind, v.delta)),
  [A.DIE]: () => T("{player} rolled a d{sides}: {result}"),
  [A.COIN]: (d) => d.result === COINS.HEADS ? T("{player} flipped a coin: heads") : T("{player} flipped a coin: tails"),
  [A.FIRST_PLAYER]: () => T("{player} drew the first player at random: {whose}"),
  [A.TURN]: () => T("{player}: {whose}'s turn"),
  [A.STEP]: () => T("{player}: now the {step}"),
  [A.LIFE_START]: (d) => d.next ? T("{player} set the starting life to {count} from the next game") : T("{player} set the starting life to {count}"),
  [A.DECK]: (d) => d.colors ? T("{player}'s deck: its lands make {colors}") : T("{player}'s deck: its lands make no color"),
  [A.END_OF_GAME]: (d, v) => P("{player} ended game {game}: {count} Hell card to the bottom of the Hell library", "{player} ended game {game}: {count} Hell cards to the bottom of the Hell library", v.count),
};

// where a card went, as a destination says it ("battlefield", "{whose}'s hand")
function whereTo(d) {
  return { [TO.HAND]: T("into {whose}'s hand"), [TO.BATTLEFIELD]: T("onto the battlefield"), [TO.GRAVEYARD]: T("into {whose}'s graveyard"),
           [TO.EXILE]: T("into exile"), [TO.LIBRARY_TOP]: T("on top of {whose}'s library"), [TO.LIBRARY_BOTTOM]: T("at the bottom of {whose}'s library"),
           [TO.LIBRARY_AT]: T("into {whose}'s library, {at} from the top"), [TO.SIDEBOARD]: T("onto the sideboard"),
           [TO.LIBRARY_SHUFFLED]: T("shuffled into {whose}'s library"),
           [TO.ZONE]: T("into {whose}'s {into}") }[d.to] || d.to || "";
}
function fromSideboard(d) {  // any card of the open sideboard, by anyone, to one of their zones (or the player named)
  return F(T("{player} took {card} from the sideboard {where}"), { where: whereTo(d) });
}
function intoZone(d) { return d.whose ? T("{player} put {card} into {whose}'s {zone}") : T("{player} put {card} into the {zone}"); }

// Counters put on or taken off, a sentence a kind: "Cleo put 2 poison counters on Ben (now 3)", with each
// language's own plural of "counter" (the kinds are rules.CardCounter's and rules.PlayerCounter's, from the bootstrap)
function cardCounterOn(kind, n) {
  return { [CC.PLUS]: P("{player} put {count} +1/+1 counter on {card} (now {total})", "{player} put {count} +1/+1 counters on {card} (now {total})", n),
           [CC.MINUS]: P("{player} put {count} −1/−1 counter on {card} (now {total})", "{player} put {count} −1/−1 counters on {card} (now {total})", n),
           [CC.CHARGE]: P("{player} put {count} charge counter on {card} (now {total})", "{player} put {count} charge counters on {card} (now {total})", n),
           [CC.LOYALTY]: P("{player} put {count} loyalty counter on {card} (now {total})", "{player} put {count} loyalty counters on {card} (now {total})", n),
           [CC.TIME]: P("{player} put {count} time counter on {card} (now {total})", "{player} put {count} time counters on {card} (now {total})", n),
  }[kind] || P("{player} put {count} {kind} counter on {card} (now {total})", "{player} put {count} {kind} counters on {card} (now {total})", n);
}
function cardCounterOff(kind, n) {
  return { [CC.PLUS]: P("{player} took {count} +1/+1 counter off {card} (now {total})", "{player} took {count} +1/+1 counters off {card} (now {total})", n),
           [CC.MINUS]: P("{player} took {count} −1/−1 counter off {card} (now {total})", "{player} took {count} −1/−1 counters off {card} (now {total})", n),
           [CC.CHARGE]: P("{player} took {count} charge counter off {card} (now {total})", "{player} took {count} charge counters off {card} (now {total})", n),
           [CC.LOYALTY]: P("{player} took {count} loyalty counter off {card} (now {total})", "{player} took {count} loyalty counters off {card} (now {total})", n),
           [CC.TIME]: P("{player} took {count} time counter off {card} (now {total})", "{player} took {count} time counters off {card} (now {total})", n),
  }[kind] || P("{player} took {count} {kind} counter off {card} (now {total})", "{player} took {count} {kind} counters off {card} (now {total})", n);
}
function playerCounterOn(kind, n) {
  return { [PC.POISON]: P("{player} gave {whose} {count} poison counter (now {total})", "{player} gave {whose} {count} poison counters (now {total})", n),
           [PC.ENERGY]: P("{player} gave {whose} {count} energy counter (now {total})", "{player} gave {whose} {count} energy counters (now {total})", n),
           [PC.EXPERIENCE]: P("{player} gave {whose} {count} experience counter (now {total})", "{player} gave {whose} {count} experience counters (now {total})", n),
           [PC.COMMANDER]: T("{player}: {whose} took {delta} damage from {source}'s commander (now {total})"),
  }[kind] || P("{player} gave {whose} {count} {kind} counter (now {total})", "{player} gave {whose} {count} {kind} counters (now {total})", n);
}
function playerCounterOff(kind, n) {
  return { [PC.POISON]: P("{player} took {count} poison counter off {whose} (now {total})", "{player} took {count} poison counters off {whose} (now {total})", n),
           [PC.ENERGY]: P("{player} took {count} energy counter off {whose} (now {total})", "{player} took {count} energy counters off {whose} (now {total})", n),
           [PC.EXPERIENCE]: P("{player} took {count} experience counter off {whose} (now {total})", "{player} took {count} experience counters off {whose} (now {total})", n),
           [PC.COMMANDER]: T("{player}: {delta} damage from {source}'s commander taken off {whose} (now {total})"),
  }[kind] || P("{player} took {count} {kind} counter off {whose} (now {total})", "{player} took {count} {kind} counters off {whose} (now {total})", n);
}

export function logLine(e) {
  const li = el("li", "", e.undone ? { class: "undone" } : {});
  li.append(rich(el("span", ""), logSentence(e)));  // a deck's colors drawn as their symbols
  // the game is said of an earlier game's lines only: the log's lines stay one line each, read across the table
  // what happened with it, in small, after the sentence: a card's moment, a zone that came into being, taken back,
  // another game
  const said = [...notes(e.detail || {}), ...(e.undone ? [T("taken back")] : []), ...(e.game !== page.state.game ? [T("game") + " " + e.game] : [])];
  if (said.length) li.append(el("span", said.join(" · "), { class: "small" }));
  return li;
}

export function logSentence(e) {
  // every line starts with its player: the host's, too, with a capital
  const d = e.detail || {};
  const v = { player: e.player || sentence(T("the host")), card: d.name || "", count: d.count ?? 0, game: d.game ?? e.game,
              whose: d.whose || "", kind: d.kind || "", delta: Math.abs(d.delta || 0), sides: d.sides ?? "", result: d.result ?? "",
              step: stepName(d.step || ""), colors: [...(d.colors || "")].map(symbolOf).join(""), token: d.token || "", source: d.source || "", total: d.count ?? 0,
              at: d.at ?? "", zone: zoneName(d.zone), into: zoneName(d.into || d.zone), names: (d.names || []).join(", "),
              note: d.note || "" };
  v.where = F(whereTo(d), v);
  if (e.action === A.UNDO) {  // the line taken back, said again as this viewer read it, after who took it back
    const what = logSentence({ action: d.undone, player: d.whose, game: e.game, detail: d.entry || {} });
    return F(T("{player} took back: {what}"), { player: v.player, what });
  }
  const say = SAY[e.action];
  return F(say ? say(d, v) : e.action, v);
}

const zoneName = id => (id && MADE_ZONES[id]) || id || "";
// a line's card whose draft-time text happens now ("its “when you draft” happens now"), zones that came into being
// with it: said under the line on every page
function notes(d) {
  const said = { [MOMENTS.LOOK]: T("“when a pack comes to you”: now"), [MOMENTS.DRAFT]: T("“when you draft”: now"),
                 [MOMENTS.GAME_START]: T("“at the beginning of the game”: now") };
  return [...(d.moment || []).map(m => said[m] || m),
          ...((d.zones || []).length ? [F(T("new zone: {zones}"), { zones: d.zones.map(zoneName).join(", ") })] : [])];
}
