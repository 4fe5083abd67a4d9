// The join page's one script: the table's address brings its code after "#" (…/#code=CODE, the board's with
// &host=SECRET), which browsers never send to the server. It is traded here for this table's cookies (the code in
// the request's body, never in an address), then the table opens at its bare address; a re-seat code (#seat=)
// stays in the fragment for the table's page to use. Without a code, or with a wrong one, this page stays: it
// says how to join. A link pasted into this tab changes only the fragment: it is read then too.
function enter() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const code = hash.get("code");
  if (!code) return;
  const sent = { code, host: hash.get("host") };
  hash.delete("code"); hash.delete("host");
  const rest = hash.toString();
  history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
  fetch("api/enter", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(sent) })
    .then(answer => { if (answer.ok) location.replace(location.href); })
    .catch(() => {});
}
enter();
window.addEventListener("hashchange", enter);
