// The join page's one script: the table's address brings its code after "#" (…/#code=CODE, the board's with
// &host=SECRET), which browsers never send to the server. It is traded here for this table's cookies (the code in
// the request's body, never in an address), then the table opens at its bare address. What else the fragment
// holds (a re-seat code, #seat=) is kept for this tab until the table's page reads it: opening the same address
// with a fragment would not load the page again. Without a code, or with a wrong one, this page stays: it says
// how to join. A link pasted into this tab changes only the fragment: it is read then too.
import { FRAGMENT_KEY } from "./page.js";

function enter() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const code = hash.get("code");
  if (!code) return;
  const sent = { code, host: hash.get("host") };
  hash.delete("code"); hash.delete("host");
  const bare = location.pathname + location.search;
  history.replaceState(null, "", bare);
  fetch("api/enter", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(sent) })
    .then(answer => {
      if (!answer.ok) return;
      if (hash.toString()) sessionStorage.setItem(FRAGMENT_KEY, hash.toString());
      location.replace(bare);
    })
    .catch(() => {});
}
enter();
window.addEventListener("hashchange", enter);
