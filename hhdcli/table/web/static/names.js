// The rules' names said in the page's language: a turn's steps and the counters' kinds, as the log (log.js) and
// the page (render.js) both say them; the kinds and steps are the rules' enums, from the bootstrap.
import { el } from "./page.js";
import { CARD_COUNTERS as CC, COMMANDER_KEY, F, PLAYER_COUNTERS as PC, STEPS, SYMBOLS, T } from "./i18n.js";

export function stepName(step) {
  return { [STEPS.UNTAP]: T("untap step"), [STEPS.UPKEEP]: T("upkeep"), [STEPS.DRAW]: T("draw step"),
           [STEPS.MAIN_1]: T("first main phase"), [STEPS.COMBAT]: T("combat"), [STEPS.MAIN_2]: T("second main phase"),
           [STEPS.END]: T("end step") }[step] || step;
}
// the counters' kinds as the rules name them (rules.CardCounter, rules.PlayerCounter), said
export function cardCounterName(kind) {
  return { [CC.PLUS]: CC.PLUS, [CC.MINUS]: "−1/−1", [CC.CHARGE]: T("charge"), [CC.LOYALTY]: T("loyalty"), [CC.TIME]: T("time") }[kind] || kind;
}
// commander damage is kept per commander: its key is COMMANDER_KEY and whose commander dealt it ("commander:Ben")
export function commanderOf(key) { return key.startsWith(COMMANDER_KEY) ? key.slice(COMMANDER_KEY.length) : null; }
export function playerCounterName(key) {
  const commander = commanderOf(key);
  if (commander !== null) return F(T("{player}'s commander"), { player: commander });
  return { [PC.POISON]: T("poison"), [PC.ENERGY]: T("energy"), [PC.EXPERIENCE]: T("experience") }[key] || key;
}

// card text with its mana symbols drawn as symbols ({2} → a grey circle with 2, as hhd's PDFs draw it)
export function rich(target, text) {
  target.replaceChildren();
  let last = 0;
  for (const m of (text || "").matchAll(/\{([^{}]{1,12})\}/g)) {
    target.append(text.slice(last, m.index)); last = m.index + m[0].length;
    const s = SYMBOLS[m[1]];
    if (!s) { target.append(m[0]); continue; }
    const span = el("span", s.label, { class: "ms" + (s.phyrexian ? " phy" : "") + (s.unknown ? " unknown" : ""), role: "img", "aria-label": m[0] });
    span.style.background = s.bg;  // CSSOM, which the page's style-src 'self' allows (a style="" attribute it would not)
    target.append(span);
  }
  target.append(text ? text.slice(last) : "");
  return target;
}
export function symbolOf(letter) { return SYMBOLS[letter] ? "{" + letter + "}" : letter; }  // a color letter, for rich() to draw as its symbol
