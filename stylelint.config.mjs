// `npm run lint:css`: the built stylesheet checked against the browsers the
// client scripts are lowered to (scripts/lower-client-syntax.mjs), with
// doiuse's data (stylelint-no-unsupported-browser-features) and, for what that
// cannot see, whether each newer feature has its fallback beside it
// (scripts/stylelint-old-browsers.mjs). docs/decisions/031-old-browsers-css.md.
//
// Only the site's own stylesheet (css-bundle-*.css) is checked: Uppy's
// stylesheets are added by Uppy's loader, which runs only where the app
// hydrates (Safari 15.4, Chrome 93, Firefox 92: docs/decisions/002).
import { CLIENT_TARGETS } from "./scripts/lower-client-syntax.mjs";

const BROWSERSLIST_NAMES = { safari: "safari", ios: "ios_saf", chrome: "chrome", edge: "edge", firefox: "firefox" };
const browsers = CLIENT_TARGETS.map((target) => {
  const [, name = "", version] = /^([a-z]+)(\d+)$/.exec(target) ?? [];
  return `${BROWSERSLIST_NAMES[/** @type {keyof typeof BROWSERSLIST_NAMES} */ (name)]} >= ${version}`;
});

/** Features the stylesheet uses although some of those browsers lack them, and why each is fine there. */
const JUSTIFIED = {
  "flexbox-gap":
    "Every flex container with a gap gets margins where flex gap is missing (flexGapFallback, checked by memorial/old-browser-fallbacks). " +
    "Grid gap is Safari 12, Chrome 66, Firefox 61: only Chrome 64–65 show the grids without their gaps.",
  "css-math-functions":
    "Each min(), max() and clamp() follows a plain value of the same property or sits in @supports (checked by memorial/old-browser-fallbacks).",
  "css-has": "Only alone in a rule that adds to the page (the empty toast region is hidden; checked by memorial/old-browser-fallbacks).",
  "css-overflow": "Only one keyword (hidden, auto), which all have; the partial support is overflow: clip and two values.",
  "css-focus-visible": "Where it is missing, the browser's own focus ring shows.",
  "prefers-reduced-motion": "Chrome 64–73: the animations that run only under no-preference stay still, which is the calmer way round.",
  "css-gradients":
    "Karen Mode's decorations; the partial support is interpolation hints, and a gradient an old Safari cannot read is only left undrawn.",
  "css-sticky": "The partial support is sticky table parts; the header is a plain block.",
  "css-masks": "Karen Mode's light beams, with -webkit-clip-path beside: at worst a plain beam.",
  "css-clip-path": "Karen Mode's light beams, with -webkit-clip-path beside: at worst a plain beam.",
  "css-mixblendmode": "Karen Mode's decoration: screen is supported; the partial support is other blend modes.",
  "text-decoration": "text-decoration-thickness: where it is missing, the usual underline.",
  "css3-cursors": "A phone or tablet has no cursor to change.",
  "css-touch-action": "The slideshow's swipe: where it is missing, the browser keeps its own gestures and the buttons still work.",
  pointer: "The slideshow's swipe: where it is missing, the browser keeps its own gestures and the buttons still work.",
  "css-scroll-behavior": "Where it is missing, the page jumps to an anchor instead of scrolling smoothly.",
  "css-page-break":
    "The Print tab's sheets of cards, one per language: page-break-before: always beside break-before: page; the partial support " +
    "is the avoid values inside columns, and at worst two languages' cards share a printed page.",
  "css-snappoints": "scroll-margin-top (Chrome 64–68): a linked section starts under the sticky header.",
  "css-resize": "iOS cannot resize a text box by hand; the boxes are tall enough.",
  "css-paged-media": "The Print tab's paper margins: where @page is missing, the printer's own margins, inside which the sheet fits.",
  multicolumn:
    "break-inside: avoid for the printed cards, and column-gap (with its flex fallback); the partial support is breaks inside multi-column layout, not used.",
  "viewport-unit-variants": "svh only inside @supports (min-height: 100svh): elsewhere the plain height before it.",
  "css-matches-pseudo": "Only in the overrides of Uppy's widget (ShareUploader.css.ts), which runs only where the app hydrates.",
  "css-not-sel-list": "Only in the overrides of Uppy's widget (ShareUploader.css.ts), which runs only where the app hydrates.",
  "css-logical-props":
    "Only in the overrides of Uppy's widget (ShareUploader.css.ts), beside right: 0; `inset` itself is written out by the build.",
};

export default {
  plugins: ["stylelint-no-unsupported-browser-features", "./scripts/stylelint-old-browsers.mjs"],
  rules: {
    "plugin/no-unsupported-browser-features": [true, { browsers, ignore: Object.keys(JUSTIFIED), severity: "error" }],
    "memorial/old-browser-fallbacks": true,
  },
};
