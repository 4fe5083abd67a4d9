// A card as every part of the page shows it: its image (the print image from the laptop's cache, else the face hhd
// draws), its description joined to its reference, its owner, the format's rulings and hhd's clarification of it,
// its moments, the tokens it makes; and the small number dialog the card's actions ask with.
import { $, el, page } from "./page.js";
import { F, MOMENTS, T } from "./i18n.js";
import { rich } from "./names.js";

export function image(img, card, alt = card.name) {  // the print image from the laptop's cache, else the face hhd draws: never another site
  img.alt = alt;  // "" where the card's name is written beside it
  if (card.face) img.src = card.face;
}
export function full(ref) { return { ...ref, ...page.described.get(ref.id), owner: ref.owner }; }

export function myPlayer() { return page.state.players.find(p => p.name === page.state.you); }  // this phone's player, if any
export function rulings(list, card) {  // the format's own rulings on a card, under its text
  list.replaceChildren(...(card.hell_rulings || []).map(r => rich(el("li"), T("In Hell's Half-Draft:") + " " + r.text)));
}

export function tokens(list, card) {  // the tokens a card makes, under its rulings: a tap shows the token's face (again: hides it)
  list.replaceChildren(...(card.tokens || []).map(t => {
    const item = el("li");
    const button = el("button", F(T("Makes a token: {token}"), { token: t.name }), { class: "soft", "aria-expanded": "false" });
    button.onclick = () => {
      const open = item.querySelector("img");
      if (open) { open.remove(); button.setAttribute("aria-expanded", "false"); return; }
      const img = el("img"); img.alt = t.name + " — " + t.type_line; img.src = t.face;
      item.append(img); button.setAttribute("aria-expanded", "true");
    };
    item.append(button);
    return item;
  }));
}

export function owned(c) { return c.owner ? F(T("owner: {player}"), { player: c.owner }) : T("no owner"); }

export function clarified(target, card) {  // hhd's word on this very card, in the page's language
  target.hidden = !card.clarification;
  target.textContent = card.clarification ? T("Clarification:") + " " + card.clarification : "";
}

export function momentSaid(moment) {  // when the format says a card's draft-time text happens
  return { [MOMENTS.LOOK]: T("When a pack with this card comes to you: as you look at it on top of the Hell library"),
           [MOMENTS.DRAFT]: T("When you draft this card: as you take it or decline it"),
           [MOMENTS.GAME_START]: T("At the beginning of the game: as you take it") }[moment] || moment;
}

export function momentList(list, moments) {
  list.replaceChildren(...moments.map(m => { const li = el("li");
    li.append(el("b", momentSaid(m.moment)), m.words ? " — " : "", m.words ? rich(el("span"), m.words) : "");
    return li; }));
}

// A card whose moment happens now (looked at, taken, declined): its words and clarification, and what it may need
// at once (shown to the table)
// --- a number asked in a small dialog (N-th from the top, how many) ------------------------------------------

export function askNumber(title, value = 1, most = 99, nonbasic = false) {
  $("number-title").textContent = title;
  $("number-nonbasic-row").hidden = !nonbasic; $("number-nonbasic").checked = false;
  const input = $("number-value"); input.value = value; input.max = most;
  $("number").showModal(); input.focus(); input.select();
  return new Promise(done => {
    $("number-form").onsubmit = e => { e.preventDefault(); $("number").close(); const n = Number(input.value);
      done(Number.isInteger(n) && n >= 1 && n <= most ? n : null); };
    $("number-cancel").onclick = () => { $("number").close(); done(null); };
  });
}


// a line of text asked in a small dialog (a note on a card): null when cancelled, "" to clear
export function askText(title, value = "") {
  $("text-title").textContent = title;
  const input = $("text-value"); input.value = value;
  $("text").showModal(); input.focus(); input.select();
  return new Promise(done => {
    $("text-form").onsubmit = e => { e.preventDefault(); $("text").close(); done(input.value.trim()); };
    $("text-cancel").onclick = () => { $("text").close(); done(null); };
  });
}
