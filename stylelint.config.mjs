// The table page's and the join page's CSS (hhdcli/table/web/static/*.css) against the browsers the page supports
// (package.json's browserslist, docs/table.md): caniuse's data through doiuse. .ci/run runs it beside ESLint.
export default {
  plugins: ["stylelint-no-unsupported-browser-features"],
  rules: {
    "plugin/no-unsupported-browser-features": [true, {
      severity: "error",
      // what a browser has with known bugs is no missing feature: column-gap read as multi-column layout's,
      // Safari 15's overflow without `overflow: clip`'s two values, display: contents' old accessibility bugs
      ignorePartialSupport: true,
      // :has() hides the box of messages when all of them are hidden, in a rule of its own: where it is missing
      // (Chrome before 105, Firefox before 121) the box keeps its gap, and nothing else changes
      ignore: ["css-has"],
    }],
  },
};
