// The table page's ES modules (hhdcli/table/web/static/) against the browsers it supports (docs/table.md: Safari
// and iOS 15.4, Chrome 100, Firefox 98): what oxlint (.oxlintrc.json) does not check. A module one of those browsers
// cannot parse is never run (a phone then waits at "connecting…" for ever), and a built-in it lacks throws when
// called. .ci/run runs it (npm ci, then npx eslint) beside oxlint; these rules only, the rest is oxlint's.
import compat from "eslint-plugin-compat";
import esX from "eslint-plugin-es-x";
import globals from "globals";

export default [
  {
    files: ["hhdcli/table/web/static/**/*.js"],
    languageOptions: {
      // read any syntax, so that es-x names what is too new rather than the parser failing on it
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "es-x": esX, compat },
    settings: {
      // a method named like a newer built-in's (xs.findLast(…), s.isWellFormed()) is reported whatever xs is:
      // the modules have no types to tell an array from anything else
      "es-x": { aggressive: true },
    },
    rules: {
      // syntax and built-ins up to ES2022, which all three have (Safari 15.4 was the last to get .at() and
      // Object.hasOwn), and none of ES2023 on (Firefox 98 has no findLast)…
      ...esX.configs["flat/restrict-to-es2022"].rules,
      ...esX.configs["flat/restrict-to-es2022-intl-api"].rules,
      // …except what Safari got later than the rest of its year: a regex lookbehind (ES2018) and a class's static
      // block (ES2022) came in Safari 16.4, and before it the whole module fails to load; Intl.Segmenter (ES2022's
      // Intl) came in Firefox 125
      "es-x/no-regexp-lookbehind-assertions": "error",
      "es-x/no-class-static-block": "error",
      "es-x/no-intl-segmenter": "error",
      // an iterator's map, filter… (ES2025) only where the object is known to be an iterator: every array's
      // .map(…) would be one to a reading that cannot tell them apart
      ...Object.fromEntries(Object.keys(esX.rules).filter((name) => name.startsWith("no-iterator-prototype-"))
        .map((name) => [`es-x/${name}`, ["error", { aggressive: false }]])),
      // the browsers' own APIs (fetch, EventSource, <dialog>'s showModal…) by MDN's data, for package.json's
      // browserslist (the same three browsers)
      ...compat.configs["flat/recommended"].rules,
    },
  },
];
