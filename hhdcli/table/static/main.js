// The Hell table's page: a phone's hand, or the laptop's board. The buttons wired to the API, then connected.
import { $, page, setDrawn } from "./page.js";
import { amp, api, call, code, connect, onState, q, showError } from "./api.js";
import { boardView, closeEnd, render } from "./render.js";
import { sentence } from "./i18n.js";

onState(render);
document.querySelectorAll("a.lang").forEach(a => { a.href = "?lang=" + a.lang + (code ? "&code=" + encodeURIComponent(code) : "") + location.hash; });

document.querySelectorAll("button[data-action]").forEach(b => b.onclick = async () => {
  const action = b.dataset.action;
  if (action === "draw") { setDrawn(null); render(); }  // the last card is not shown again while the new one comes
  const answer = await call(action);
  if (action === "draw" && answer) { setDrawn(answer.verdict === "choice" ? null : answer); render(); }
  if (action === "take" && answer) { setDrawn(null); render(); }
});
$("dismiss").onclick = () => { setDrawn(null); render(); };
$("keep").onclick = () => { const bottom = page.ticked.slice(); page.ticked = []; call("keep", { bottom }); };

// the game whose end is being confirmed: the confirmation ends that game only (another phone or the board may
// end it first; then the question is gone, and a late Yes is refused rather than ending the next game)
$("end").onclick = async () => {  // the first step says what ending the game will do; nothing moves yet
  const asked = page.state.game;
  const { answer } = await api("/api/end-game" + q, { method: "POST", body: "{}" });
  if (!answer.confirm) { showError(answer.error); return; }
  page.ending = asked;
  $("end-said").textContent = sentence(answer.error); $("end-confirm").hidden = false; $("end").hidden = true;
};
$("end-no").onclick = closeEnd;
$("end-yes").onclick = async () => { const game = page.ending; closeEnd(); setDrawn(null); await call("end-game", { confirm: true, game }); };
$("board-undo").onclick = () => call("undo");
$("own-send").onclick = async () => { const name = $("own-name").value.trim(); if (!name) { $("own-name").focus(); return; }
  if (await call("own-card", { name })) $("own-name").value = ""; };
$("own-name").onkeydown = e => { if (e.key === "Enter") $("own-send").click(); };
$("add").onsubmit = async e => { e.preventDefault();
  if (await call("host/add-player", { player: $("add-name").value, colors: $("add-colors").value })) { $("add-name").value = ""; $("add-colors").value = ""; } };
$("switch").onclick = e => { e.preventDefault(); page.view = boardView() ? "phone" : "board"; localStorage.setItem("hell-view", page.view); render(); };
window.addEventListener("resize", () => { if (page.state) render(); });
$("seat-cancel").onclick = () => $("seat-menu").close();
$("reseat-close").onclick = () => { $("reseat").close(); $("reseat-qr").removeAttribute("src"); $("reseat-url").textContent = ""; };
$("dlg-close").onclick = () => $("card-dialog").close();
$("older").onclick = async () => {  // the log's older entries, a page at a time
  const shown = page.state.log.concat(page.older); if (!shown.length) return;
  const { ok, answer } = await api("/api/log" + amp + "before=" + shown[shown.length - 1].id);
  if (!ok) { showError(answer.error); return; }
  page.older = page.older.concat(answer.log); page.olderMore = answer.log_more; render(); $("log-box").focus();
};

connect();
