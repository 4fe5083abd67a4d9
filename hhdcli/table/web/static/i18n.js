// The page's words in its language, from the server's bootstrap (hhdcli/table/web/page.py): the table catalog's
// messages this page uses (marked here and in the other modules as T("…") and P("…", "…", n), which Babel's
// JavaScript extractor reads), the catalog's plural rule, the mana symbols and every value of the rules the page
// compares with what the server sends (zones, actions, ends, destinations, steps, counters, verdicts, openings, coins).
const boot = JSON.parse(document.getElementById("bootstrap").textContent);
export const SYMBOLS = boot.symbols;
export const ACTIONS = boot.actions;  // Action's members by name: ACTIONS.DRAW is "draw", as the log says it
export const ZONES = boot.zones;
export const ENDS = boot.ends;  // End's: the top or bottom of an ordered zone (a library)
export const DESTINATIONS = boot.destinations;  // Destination's: where a move sends a card, as the API names it
export const STEPS = boot.steps;  // Step's: a turn's steps, by name
export const STEP_ORDER = boot.step_order;  // and in a turn's order (the bootstrap's objects come sorted by key)
export const CARD_COUNTERS = boot.card_counters;  // CardCounter's: the counters a card on the battlefield keeps
export const PLAYER_COUNTERS = boot.player_counters;  // PlayerCounter's: a player's (commander damage per commander)
export const COMMANDER_KEY = boot.commander_key;  // commander damage's key: this, then whose commander dealt it
export const VERDICTS = boot.verdicts;  // Take's: the take rule's answer for a drawn card (land, take, choice)
export const OPENINGS = boot.openings;  // Opening's: a player's opening hand dealt, or kept (none yet: null)
export const COINS = boot.coins;  // Coin's: heads or tails, as the log says a coin fell
export const MOMENTS = boot.moments;  // Moment's: when a card's draft-time text happens (look, draft, game start)
export const MADE_ZONES = boot.made_zones;  // the zones Hell cards create, by id: their names in this language
export const COMMUNITY = boot.community;  // a table of hhd serve's (a community's server), not a laptop's hhd table

export function T(message) { return boot.messages.T[message] ?? message; }

// gettext's plural expressions are C: n, integers, ! * / % + - < > <= >= == != && || ?: and parentheses.
const BINARY = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
const APPLY = { "||": (a, b) => +(a || b), "&&": (a, b) => +(a && b), "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b),
  "<": (a, b) => +(a < b), ">": (a, b) => +(a > b), "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b),
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b };

// The catalog's Plural-Forms expression ("n%10==1 && n%100!=11 ? 0 : …"), read by a small parser into a function
// of n: the page's Content-Security-Policy allows no eval, and the rule is the catalog's, written once.
const pluralForm = compilePlural(boot.plural);
export function P(singular, plural, n) {  // the form the language's rule picks, with {count}
  const forms = boot.messages.P[singular] || [singular, plural];
  return (forms[pluralForm(n)] ?? forms[forms.length - 1]).replaceAll("{count}", n);
}
export function F(text, values) { return text.replace(/\{(\w+)\}/g, (all, k) => k in values ? values[k] : all); }
export function sentence(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }  // the API's messages start small

export function compilePlural(expression) {
  const tokens = expression.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) || [];
  let at = 0;
  const take = want => { if (tokens[at] !== want) throw new Error("plural rule: expected " + want); at++; };
  function primary() {
    const token = tokens[at++];
    if (token === "n") return n => n;
    if (token === "(") { const inner = ternary(); take(")"); return inner; }
    if (token === "!") { const operand = primary(); return n => +!operand(n); }
    if (token === "-") { const operand = primary(); return n => -operand(n); }
    if (/^\d+$/.test(token || "")) { const value = Number(token); return () => value; }
    throw new Error("plural rule: unexpected " + token);
  }
  function binary(level) {
    if (level === BINARY.length) return primary();
    let left = binary(level + 1);
    while (BINARY[level].includes(tokens[at])) {
      const apply = APPLY[tokens[at++]], a = left, b = binary(level + 1);
      left = n => apply(a(n), b(n));
    }
    return left;
  }
  function ternary() {
    const test = binary(0);
    if (tokens[at] !== "?") return test;
    at++;
    const yes = ternary(); take(":"); const no = ternary();
    return n => (test(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  if (at !== tokens.length) throw new Error("plural rule: unexpected " + tokens[at]);
  return n => Number(rule(n));
}
