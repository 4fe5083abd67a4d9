// The Hell table's page: a phone's hand, or the laptop's board. The buttons wired to the API, then connected.
import { $, VIEW_KEY, el, page, setDrawn } from "./page.js";
import { api, call, connect, onState, showError, undo } from "./api.js";
import { boardView, closeCounters, closeEnd, nextStep, render, sayLast } from "./render.js";
import { closeZone, giveRandomHellCards, makeTokenCard, randomFromSideboard, sendGift, sendToken, showMoments } from "./zones.js";
import { rich, symbolOf } from "./names.js";
import { F, T, VERDICTS, sentence } from "./i18n.js";

onState(render);
document.querySelectorAll("a.lang").forEach(a => { a.href = "?lang=" + a.lang; });

// a button's data-action is the API's address it calls (api/<action>)
document.querySelectorAll("button[data-action]").forEach(b => b.onclick = () => call(b.dataset.action));
// the bar's main button: the opening hand, then a draw (renderBar says which). A drawn card stays on screen
// until dismissed, but a choice card, which waits for take or decline in its own sheet
$("draw").onclick = async () => {
  setDrawn(null); render();  // the last card is not shown again while the new one comes
  const answer = await call($("draw").dataset.action);
  if (answer && answer.verdict) { setDrawn(answer.verdict === VERDICTS.CHOICE ? null : answer); render(); }
  const moving = answer && (answer.now ? answer : (answer.cards || []).find(c => c.now && c.now.length));
  if (moving) showMoments(moving, moving.now, true);  // a card's "when you draft" (or its look, its game start) now
};
// take or decline a drawn choice card: its "when you draft" happens now, said on this phone
for (const b of document.querySelectorAll("#choice button[data-action]")) {  // a taken card stays in the hand
  b.onclick = async () => { const answer = await call(b.dataset.action); if (answer) showMoments(answer, answer.now, "held" in b.dataset); };
}
$("undo").onclick = () => undo();
$("dismiss").onclick = () => { setDrawn(null); render(); };
$("keep").onclick = () => { const bottom = page.ticked.slice(); page.ticked = []; call("keep", { bottom }); };

// the game whose end is being confirmed: the confirmation ends that game only (another phone or the board may
// end it first; then the question is gone, and a late Yes is refused rather than ending the next game)
$("end").onclick = async () => {  // the first step says what ending the game will do; nothing moves yet
  const asked = page.state.game;
  const { answer } = await api("api/end-game", { method: "POST", body: "{}" });
  if (!answer.confirm) { showError(answer.error); return; }
  page.ending = asked;
  $("end-said").textContent = sentence(answer.error); $("end-confirm").hidden = false; $("end").hidden = true;
  $("end-confirm").scrollIntoView({ block: "center" });  // the question where the eyes are, wherever End was tapped
};
// on the board End and Undo sit at the foot of the seats column, Starting life… at the first column's: once
// answered, the column goes back to its top (every player's name and life; the library's and sideboard's counts),
// rather than staying scrolled away from them
const toTop = column => { if (boardView()) $(column).scrollTo(0, 0); };
const seatsToTop = () => toTop("col-seats");
$("end-no").onclick = () => { closeEnd(); seatsToTop(); };
$("end-yes").onclick = async () => { const game = page.ending; closeEnd(); setDrawn(null); seatsToTop(); await call("end-game", { confirm: true, game }); };
$("board-undo").onclick = async () => { await undo(); seatsToTop(); };
$("own-send").onclick = async () => { const name = $("own-name").value.trim(); if (!name) { $("own-name").focus(); return; }
  if (await call("own-card", { name })) $("own-name").value = ""; };
$("own-name").onkeydown = e => { if (e.key === "Enter") $("own-send").click(); };
// a late player in a dialog of its own: the board's columns never scroll to a form and away from the counts
$("add-open").onclick = () => { $("add-dialog").showModal(); $("add-name").focus(); };
$("add-cancel").onclick = () => $("add-dialog").close();
$("add").onsubmit = async e => { e.preventDefault();
  if (await call("host/add-player", { player: $("add-name").value, colors: $("add-colors").value })) {
    $("add-name").value = ""; $("add-colors").value = ""; $("add-dialog").close(); } };
$("switch").onclick = e => { e.preventDefault(); page.view = boardView() ? "phone" : "board"; localStorage.setItem(VIEW_KEY, page.view); render(); };
window.addEventListener("resize", () => { if (page.state) render(); });
$("seat-cancel").onclick = () => $("seat-menu").close();
$("reseat-close").onclick = () => { $("reseat").close(); $("reseat-qr").removeAttribute("src"); $("reseat-url").textContent = ""; };
$("dlg-close").onclick = () => $("card-dialog").close();
$("older").onclick = async () => {  // the log's older entries, a page at a time
  const shown = page.state.log.concat(page.older); if (!shown.length) return;
  const { ok, answer } = await api("api/log?before=" + shown[shown.length - 1].id);
  if (!ok) { showError(answer.error); return; }
  page.older = page.older.concat(answer.log); page.olderMore = answer.log_more; render(); $("log-box").focus();
};

// life and turns: each a call the server logs (dice and coins drawn there, not here)
$("next-step").onclick = () => nextStep();
$("next-turn").onclick = () => call("next-turn");
$("first-player").onclick = () => call("first-player");
$("roll-6").onclick = () => call("die", { sides: 6 });
$("roll-20").onclick = () => call("die", { sides: 20 });
$("flip").onclick = () => call("coin");
// on a phone the same, from the bar wherever the page is scrolled: the answer (the die, the coin, who is first)
// said in the dialog, where the eyes are
async function tool(action) { $("tools-said").textContent = ""; if (await action()) sayLast(); }
$("tools-roll-6").onclick = () => tool(() => call("die", { sides: 6 }));
$("tools-roll-20").onclick = () => tool(() => call("die", { sides: 20 }));
$("tools-flip").onclick = () => tool(() => call("coin"));
$("tools-first-player").onclick = () => tool(() => call("first-player"));
$("tools-next-step").onclick = () => tool(nextStep);
$("tools-next-turn").onclick = () => tool(() => call("next-turn"));
$("tools-open").onclick = () => { $("tools-said").textContent = ""; $("tools").showModal(); };
$("tools-close").onclick = () => $("tools").close();
$("tools-end").onclick = () => { $("tools").close(); $("end").click(); };
// the starting life in a dialog of its own: the board's columns never scroll to a form and away from the counts
$("life-start-open").onclick = () => { $("life-start").value = page.state.life_start; $("life-start-dialog").showModal(); $("life-start").focus(); };
$("life-start-dialog").onclose = () => toTop("col-play");  // however it closes: answered, cancelled, Escape
$("life-start-cancel").onclick = () => $("life-start-dialog").close();
$("life-start-form").onsubmit = async e => { e.preventDefault();
  if (await call("host/life-start", { life: Number($("life-start").value) })) $("life-start-dialog").close(); };
$("counters-close").onclick = () => closeCounters();
// what Hell cards ask of the table: the sideboard's shuffle and random cards, Hell cards at random into a hand, a
// companion cast, the created zones' dialog, a moment said
$("sb-shuffle").onclick = () => call("sideboard/shuffle");
$("sb-random").onclick = () => randomFromSideboard();
$("tools-gift").onclick = () => { $("tools").close(); giveRandomHellCards(); };
$("board-gift").onclick = () => giveRandomHellCards();
$("gift-form").onsubmit = sendGift;
$("gift-cancel").onclick = () => $("gift").close();
$("companion-cast").onclick = () => call("companion/cast");
$("moment-ok").onclick = () => $("moment").close();
$("zone-close").onclick = () => closeZone();
$("revealed-close").onclick = () => $("revealed").close();
$("tools-token").onclick = () => { $("tools").close(); makeTokenCard(); };
$("token-form").onsubmit = sendToken;
$("token-cancel").onclick = () => $("token-dialog").close();

// a deck from this phone: pasted, or its colors picked; the table answers with its colors and hhd check's warnings
async function useDeck(extra) {
  const answer = await call("deck", extra);
  if (!answer) return;
  // the colors as the symbols the header's line draws; each warning a sentence, as the lines above it
  const colors = answer.colors ? [...answer.colors].map(symbolOf).join("") : T("no color");
  $("deck-said").replaceChildren(rich(el("li"), F(T("Your deck's lands make {colors}."), { colors })),
    ...answer.warnings.map(w => el("li", sentence(w))));
}
$("deck-send").onclick = () => { const text = $("deck-text").value; if (!text.trim()) { $("deck-text").focus(); return; } useDeck({ text }); };
$("colors-send").onclick = () => useDeck({ colors: $("deck-colors").value });

// the bar at a phone's foot (with a drawn card's sheet) grows and shrinks: the page ends above it, whatever its height
new ResizeObserver(() => document.body.style.setProperty("--bar", $("bar").offsetHeight + "px")).observe($("bar"));

connect();
