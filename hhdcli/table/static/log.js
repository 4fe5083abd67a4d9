// The log, in sentences: "Anna drew a Hell card" (which one is hers to know), "Ben declined Hype Train". The
// actions are named as the server's Action enum names them (ACTIONS, from the bootstrap).
import { el } from "./page.js";
import { kindName, stepName } from "./render.js";
import { ACTIONS as A, ENDS, F, P, T, sentence } from "./i18n.js";

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
  [A.TO_HAND]: (d) => d.name ? T("{player} returned {card} to its owner's hand") : T("{player} drew a Hell card from their library"),
  [A.TO_LIBRARY]: (d) => d.name ? atEnd(d, T("{player} put {card} on top of its owner's library"), T("{player} put {card} at the bottom of its owner's library"))
                                : T("{player} put a Hell card into their library"),
  [A.TAP]: () => T("{player} tapped {card}"),
  [A.UNTAP]: () => T("{player} untapped {card}"),
  [A.CARD_COUNTER]: (d) => bySign(d, T("{player} put {delta} {kind} on {card} (now {count})"), T("{player} removed {delta} {kind} from {card} (now {count})")),
  [A.TOKENS]: (d) => bySign(d, T("{player}: {card}'s {token} tokens in play: {count} (+{delta})"), T("{player}: {card}'s {token} tokens in play: {count} (−{delta})")),
  [A.LIFE]: (d) => bySign(d, T("{player}: {whose} gains {delta} life (now {count})"), T("{player}: {whose} loses {delta} life (now {count})")),
  [A.PLAYER_COUNTER]: (d) => bySign(d, T("{player}: {delta} {kind} on {whose} (now {count})"), T("{player}: {delta} {kind} off {whose} (now {count})")),
  [A.DIE]: () => T("{player} rolled a d{sides}: {result}"),
  [A.COIN]: (d) => d.result === "heads" ? T("{player} flipped a coin: heads") : T("{player} flipped a coin: tails"),
  [A.FIRST_PLAYER]: () => T("{player} drew the first player at random: {whose}"),
  [A.TURN]: () => T("{player}: {whose}'s turn"),
  [A.STEP]: () => T("{player}: now the {step}"),
  [A.LIFE_START]: () => T("{player} set the starting life to {count}"),
  [A.DECK]: (d) => d.colors ? T("{player}'s deck: its lands make {colors}") : T("{player}'s deck: its lands make no color"),
  [A.END_OF_GAME]: (d, v) => P("{player} ended game {game}: {count} Hell card to the bottom of the Hell library", "{player} ended game {game}: {count} Hell cards to the bottom of the Hell library", v.count),
};

export function logLine(e) {
  const li = el("li", "", e.undone ? { class: "undone" } : {});
  li.append(el("span", logSentence(e)), el("span", (e.undone ? T("taken back") + " · " : "") + T("game") + " " + e.game, { class: "small" }));
  return li;
}

function logSentence(e) {
  // every line starts with its player: the host's, too, with a capital
  const d = e.detail || {};
  const v = { player: e.player || sentence(T("the host")), card: d.name || "", count: d.count ?? 0, game: d.game ?? e.game,
              whose: d.whose || "", kind: kindName(d.kind || ""), delta: Math.abs(d.delta || 0), sides: d.sides ?? "", result: d.result ?? "",
              step: stepName(d.step || ""), colors: d.colors || "", token: d.token || "" };
  if (e.action === A.UNDO)  // the line taken back, said again as it was, after who took it back
    return F(T("{player} took back: {what}"), { player: v.player, what: logSentence({ action: d.undone, player: d.whose, game: e.game, detail: d }) });
  const say = SAY[e.action];
  return F(say ? say(d, v) : e.action, v);
}
