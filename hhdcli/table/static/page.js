// What this page holds between renders, shared by its modules, and the few DOM helpers they all use.
export const $ = id => document.getElementById(id);

export const page = {
  state: null,  // the last /api/state answer
  version: null,
  ticked: [],  // Hell cards ticked for the bottom at keep, in the order ticked
  older: [], olderMore: false,  // log pages read beyond the state's
  view: localStorage.getItem("hell-view") || "",  // "board" or "phone" when chosen, else by the screen
  described: new Map(),  // card descriptions by face id, fetched once per card
  ending: null,  // the game whose end is being confirmed (another phone may end it first)
  // the card this phone drew stays on screen until its player dismisses it (a reload too: kept for this tab)
  drawn: JSON.parse(sessionStorage.getItem("hell-drawn") || "null"),
};

export function setDrawn(card) {
  page.drawn = card;
  if (card) sessionStorage.setItem("hell-drawn", JSON.stringify(card)); else sessionStorage.removeItem("hell-drawn");
}

export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
