// What this page holds between renders, shared by its modules, and the few DOM helpers they all use.
export const $ = id => document.getElementById(id);
// what this page keeps in the browser's storage, per table (the server serves several at one origin, each under a
// path of its own): the view chosen, and (for this tab) the card drawn
export const VIEW_KEY = "hell-view:" + location.pathname, DRAWN_KEY = "hell-drawn:" + location.pathname;
// the rest of the address's fragment (a re-seat code) the join page kept for this tab, read once by api.js
export const FRAGMENT_KEY = "hell-fragment:" + location.pathname;

export const page = {
  state: null,  // the last /api/state answer
  version: null,
  ticked: [],  // Hell cards ticked for the bottom at keep, in the order ticked
  older: [], olderMore: false,  // log pages read beyond the state's
  view: localStorage.getItem(VIEW_KEY) || "",  // "board" or "phone" when chosen, else by the screen
  described: new Map(),  // card descriptions by face id, fetched once per card
  ending: null,  // the game whose end is being confirmed (another phone may end it first)
  dismissed: new Set(),  // cards the others revealed that this page has seen and dismissed
  // the card this phone drew stays on screen until its player dismisses it (a reload too: kept for this tab)
  drawn: JSON.parse(sessionStorage.getItem(DRAWN_KEY) || "null"),
};

export function setDrawn(card) {
  page.drawn = card;
  if (card) sessionStorage.setItem(DRAWN_KEY, JSON.stringify(card)); else sessionStorage.removeItem(DRAWN_KEY);
}

export function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
