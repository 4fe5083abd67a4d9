// The table's API and the connection to it: who this device is (its seat's token, the host's secret), requests,
// the state read, and pushed changes (server-sent events, with polling while the stream is not there).
import { $, FRAGMENT_KEY, VIEW_KEY, page } from "./page.js";
import { COMMUNITY, T, sentence } from "./i18n.js";

// who this device is: cookies the table set, for its path alone (its code, this phone's seat, the host's secret:
// never readable here, never in an address). The address brings them after "#", which browsers never send: the
// code and the host's secret (#code=…&host=…, the board's link) are traded for cookies at once, a re-seat code
// (#seat=…) for this phone's seat once connected; the fragment is dropped from the address bar either way
const kept = sessionStorage.getItem(FRAGMENT_KEY) || "";  // what the join page kept of it (enter.js)
sessionStorage.removeItem(FRAGMENT_KEY);
const hash = new URLSearchParams(location.hash.slice(1) || kept);
const seatCode = hash.get("seat");
const entering = hash.get("code") || hash.get("host") ? { code: hash.get("code"), host: hash.get("host") } : null;
if (location.hash) history.replaceState(null, "", location.pathname + location.search);
// a link pasted into this tab changes only the fragment: the page starts again to read it
window.addEventListener("hashchange", () => { if (location.hash) location.reload(); });
let seated = false;  // this page holds a seat (it took one, or the last state said so)
const HEADERS = { "Content-Type": "application/json" };

let rendered = () => {};
export function onState(render) { rendered = render; }  // main.js: what to do with each new state

// `offline`: the error is the table's silence; it goes when the table answers again (its cause is gone)
let errorOffline = false;
export function showError(message, offline = false) {
  errorOffline = offline && !!message;
  $("error").textContent = sentence(message); $("error").hidden = !message;
  barSaid();
}
// the sticky bar, where a player's eyes are: a failed tap's error, else the connection when it is not up; not the
// error a second time while the page's own (at its top) is in view
let errorSeen = false;
new IntersectionObserver(([seen]) => { errorSeen = seen.isIntersecting; barSaid(); }).observe($("error"));
function barSaid() {
  const error = $("error").hidden || errorSeen ? "" : $("error").textContent;
  const said = error || (conn === "up" || conn === "connecting" ? "" : $("conn").textContent);
  $("bar-said").textContent = said; $("bar-said").hidden = !said;
  $("bar-said").className = "bar-said" + (error ? " error" : "");
}

// --- connection: connected, reconnecting, not answering; never silent --------------------------------------
let conn = "connecting", pushed = false, events = null;
function setConn(now) {
  conn = now;
  const said = { up: T("connected"), reconnecting: T("reconnecting…"), down: T("table not answering"), connecting: T("connecting…") }[now];
  $("conn").textContent = said; $("conn").className = "status " + ({ up: "", reconnecting: "reconnecting", down: "down" }[now] || "");
  $("banner").hidden = now === "up" || now === "connecting";
  $("banner").className = "banner" + (now === "down" ? " down" : "");
  $("banner").textContent = now === "down" ? notAnsweringSaid() : T("Connection lost: reconnecting…");
  barSaid();
}

// what is true of the table's silence where it runs: the server tells the page which (its bootstrap)
function notAnsweringSaid() {
  return COMMUNITY ? T("The table is not answering: the server may be restarting. This page reconnects by itself.")
                   : T("The table is not answering: is hhd table still running on the laptop? This page reconnects by itself.");
}

// a proxy's own answer while the table behind it is away (Caddy's 502, a 503 or 504 page): not the table's words
const GATEWAY = [502, 503, 504];
function notAnswering() {
  setConn("down");
  return { ok: false, offline: true, answer: { error: T("The table is not answering: your tap was not sent. Try again when it is back.") } };
}

export async function api(path, options = {}) {
  let response;
  try { response = await fetch(path, { ...options, headers: { ...HEADERS, ...options.headers } }); }
  catch { return notAnswering(); }
  let answer = {};
  if (response.status === 304) answer = null;  // unchanged: what the page holds is the answer
  else try { answer = await response.json(); } catch {
    if (GATEWAY.includes(response.status)) return notAnswering();
    answer = { error: T("The table sent an answer this page cannot read.") };
  }
  if (conn === "down") { setConn(pushed ? "up" : "reconnecting"); if (!events) { failures = 0; listenLater(); } }
  if (errorOffline) showError("");
  return { ok: response.ok || response.status === 304, status: response.status, answer, tag: response.headers.get("ETag") };
}

export async function ask(text) {
  $("ask-text").textContent = sentence(text); $("ask").showModal();
  return new Promise(done => { $("ask-yes").onclick = () => { $("ask").close(); done(true); };
                               $("ask-no").onclick = () => { $("ask").close(); done(false); }; });
}

// an action on its way: state reads wait for its answer, which carries the table as the action left it (read
// before it, a push's read would fetch that state a second time; after it, the read is a 304)
let acting = 0, actionsDone = null, allDone = () => {};
export async function call(action, extra = {}, confirmed = null) {
  showError("");
  if (!acting++) actionsDone = new Promise(resolve => { allDone = resolve; });
  let sent;
  try {
    sent = await api("api/" + action, { method: "POST", body: JSON.stringify(extra), headers: { "X-Want-State": "1" } });
    if (sent.ok && sent.answer.state) { learn(sent.answer); await show(sent.answer.state, sent.answer.state_etag, true); }
  } finally { if (!--acting) allDone(); }
  const { ok, answer, status, offline } = sent;
  if (answer.confirm && confirmed) {  // the server asks first: `confirmed` asks the player, and says what to send
    const again = await confirmed(answer);
    return again ? call(action, { ...extra, ...again }) : null;
  }
  if (!ok) {
    showError(answer.error, offline);
    if (status === 401 || status === 403) { await refresh(true); }
    return null;
  }
  if (!answer.state) await refresh(true);  // an answer without the state (a server before it): read it
  return answer;
}

// an undo takes back this player's own last action; another player's (or, for the host, a player's) only when
// confirmed
export function undo() {
  return call("undo", {}, async answer => await ask(answer.error + ". " + T("Undo it anyway?")) ? { anyone: true } : null);
}

// the cards an action's answer describes (a drawn card, an opening hand): kept, so the state that shows them next
// asks for no description this page holds already
const NOT_DESCRIPTION = ["verdict", "missing", "draw_step", "reminder", "zone", "owner", "state", "state_etag"];
function learn(answer) {
  for (const card of [answer, ...(Array.isArray(answer.cards) ? answer.cards : [])]) {
    if (!card || !card.hell || !card.id || !card.face || page.described.has(card.id)) continue;
    page.described.set(card.id, Object.fromEntries(Object.entries(card).filter(([k]) => !NOT_DESCRIPTION.includes(k))));
  }
}

export async function join(name) {
  // the stream carries the states of whoever it was opened for: a spectator's until this page takes its seat,
  // then the seat's (a spectator's state pushed after the seat was taken would show the seats again)
  stopListening();
  const { ok, answer } = await api("api/join", { method: "POST", body: JSON.stringify({ player: name }) });
  if (!ok) { showError(answer.error); await refresh(true); listen(); return; }
  seated = true; page.view = ""; localStorage.removeItem(VIEW_KEY);
  showError(""); await refresh(true);
  listen();
}

// one state read at a time, and each call answered by a read that began after it: a change that comes while
// a read is on its way is read again after it (all the changes that came meanwhile by one read), so a slower
// older answer never overwrites a newer one, no change is merged away, and an action's own refresh shows the
// table as it left it. Each read sends the ETag of the state the page holds: unchanged, the answer is a 304.
let reading = null, wanted = 0, done = 0, forceNext = false, etag = "";
export async function refresh(force = false) {
  const ticket = ++wanted;
  forceNext = forceNext || force;
  while (done < ticket) {
    if (reading) { await reading; continue; }
    if (acting) { await actionsDone; continue; }
    const upTo = wanted, forced = forceNext;
    forceNext = false;
    reading = readState(forced);
    try { await reading; } finally { reading = null; done = upTo; }
  }
}
async function readState(force) {
  const asked = seated;  // a read sent before this phone took its seat does not say the seat is lost
  const { ok, answer, offline, tag } = await api("api/state", { headers: page.state && etag ? { "If-None-Match": etag } : {} });
  if (!ok) { if (answer.error && !offline) showError(answer.error); return; }
  if (answer === null) { if (force) rendered(); return; }  // 304: the state this page holds
  await show(answer, tag, force, asked);
}

// states are shown one at a time (an action's and a read's may come together): each asks for the descriptions
// the one before it did not get
let showing = Promise.resolve();
function show(answer, tag, force, asked = seated) {
  const next = showing.then(() => shown(answer, tag, force, asked));
  showing = next.catch(() => {});
  return next;
}
const online = players => JSON.stringify(players.map(p => p.online));  // who is connected, to compare
async function shown(answer, tag, force, asked) {
  if (page.state && answer.version < page.version) return;  // older than the one shown (a slower answer)
  const same = page.state && answer.version === page.version && answer.you === page.state.you
               && online(answer.players) === online(page.state.players);
  if (!force && same) { etag = tag || ""; held(answer); return; }
  // descriptions of cards this page has not seen yet, in one request
  const refs = [...answer.sideboard, ...answer.players.flatMap(p => [...p.cards, ...p.played])];
  const missing = [...new Set(refs.filter(c => c.hell && !page.described.has(c.id)).map(c => c.id))];
  if (missing.length) {
    const got = await api("api/cards?ids=" + missing.join(","));
    if (got.ok) for (const [id, card] of Object.entries(got.answer)) page.described.set(id, card);
  }
  page.state = answer; page.version = answer.version; etag = tag || ""; held(answer);
  const unseated = asked && seated && !page.state.you;  // released or re-seated elsewhere: the seats, in sight, and why
  seated = !!page.state.you;
  rendered();
  if (unseated) { showError(T("This phone no longer holds your seat (the host released it or gave it to a new phone): pick your name again."));
                  window.scrollTo(0, 0); }
}

// --- pushed changes: server-sent events, with polling while the stream is not there -----------------------
// Each change comes with this page's new state (?carry=state: the server makes it for the cookies the stream was
// opened with), so the page asks for nothing; a change of this page's own (its action's answer carried the
// state) comes as its number alone, as every change does from a server without states in its stream.
// A stream that ends (the server ends each after about 10 minutes) or fails is opened again by this page after a
// random wait, not by the browser after the same second for every page: the first within about a second, then
// up to twice as long after each failure (capped); the table answering a read again starts afresh.
const FIRST_WAIT = 1000, MOST_WAIT = 20000;
const SILENT_FOR = 40000;  // no event for this long (the server says "alive" every 15 s): the stream is gone
let failures = 0, retry = 0, heard = 0;
function listenLater() {
  clearTimeout(retry);
  retry = setTimeout(listen, 250 + Math.random() * Math.min(MOST_WAIT, FIRST_WAIT * 2 ** failures++));
}
// Each push carries the number of the table's change; a state says the number it shows (`change`): a page holding
// that change or a later one reads nothing (the acting page at the push of its own action). A new stream may count
// afresh (the server restarted), so what the page holds is forgotten when one opens.
let heldChange = -1;
function held(answer) { if (Number.isInteger(answer.change)) heldChange = Math.max(heldChange, answer.change); }
async function pushedChange(number) {
  if (acting) await actionsDone;  // the action's answer, on its way, may hold this change
  if (!(number <= heldChange)) await refresh();
}
// the stream said something: the table answers (a failed tap's "not answering" error goes, as at any answer)
function hear() { heard = Date.now(); pushed = true; if (conn !== "up") setConn("up"); if (errorOffline) showError(""); }
function listen() {
  if (!window.EventSource || events) return;
  const asked = seated;  // the seat the stream's states are made for (a state without it then means it is lost)
  events = new EventSource("api/events?carry=state"); heard = Date.now();
  events.onopen = () => { failures = 0; heldChange = -1; hear(); };
  events.addEventListener("change", e => { hear(); pushedChange(Number(e.data)); });
  events.addEventListener("state", e => {
    hear();
    const { state, etag: tag } = JSON.parse(e.data);
    show(state, tag, false, asked);
  });
  events.addEventListener("alive", hear);
  events.onerror = () => {
    pushed = false;
    if (conn === "up" || conn === "connecting") setConn("reconnecting");
    events.close(); events = null;
    listenLater();
  };
}
function stopListening() { if (events) { events.close(); events = null; } }
function listenAgain() { stopListening(); listen(); }
async function poll() {
  if (!pushed) {
    await refresh();
    if (!pushed && conn !== "down" && page.state) setConn(window.EventSource ? "reconnecting" : "up");
  }
}

export async function connect() {
  setInterval(poll, 1500);
  setInterval(() => { if (events && Date.now() - heard > SILENT_FOR) listenAgain(); }, 15000);  // a stream gone quiet
  if (entering) {  // the board's link: the host's secret (and the code) kept as this table's cookies
    const { ok, answer } = await api("api/enter", { method: "POST", body: JSON.stringify(entering) });
    if (!ok) showError(answer.error);
  }
  if (seatCode) {
    const { ok, answer } = await api("api/join", { method: "POST", body: JSON.stringify({ seat: seatCode }) });
    if (ok) seated = true; else showError(answer.error);
  }
  await refresh(true);
  listen();
}
