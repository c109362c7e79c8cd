// A stylelint rule for what doiuse cannot see: whether a feature that the
// oldest browsers the site serves lack (Safari 12 / iOS 12, Chrome 64,
// Firefox 67) has its fallback beside it. Run on the built stylesheet by
// `npm run lint` (stylelint.config.mjs; docs/decisions/031-old-browsers-css.md).
import stylelint from "stylelint";

const {
  createPlugin,
  utils: { report, ruleMessages, validateOptions },
} = stylelint;

const ruleName = "memorial/old-browser-fallbacks";

const messages = ruleMessages(ruleName, {
  math: (fn) => `${fn}() needs a plain declaration of the same property before it, or an @supports around it`,
  aspectRatio: () => "aspect-ratio needs a height for browsers without it: an @supports not (aspect-ratio: …) rule for the same selector",
  flexGap: () => "flex gap needs margins for browsers without it: an @supports not (inset: 0) rule for the same selector (flexGapFallback)",
  anywhere: () => "overflow-wrap: anywhere needs word-break: break-word in the same rule",
  inset: () => "inset (Safari 14.1): write top, right, bottom and left",
  has: () => ":has() must be alone in its rule, so a browser without it drops only that rule",
});

const MATH = /(?<![\w-])(clamp|min|max)\(/;
const GAP = /^(gap|row-gap|column-gap)$/;

/** @param {import("postcss").Node} node @param {RegExp} condition */
function insideSupports(node, condition) {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === "atrule" && /** @type {import("postcss").AtRule} */ (parent).name === "supports") {
      if (condition.test(/** @type {import("postcss").AtRule} */ (parent).params)) return true;
    }
  }
  return false;
}

/** @type {import("stylelint").Rule} */
const rule = (primary) => (root, result) => {
  if (!validateOptions(result, ruleName, { actual: primary })) return;

  /** Selectors that have a rule inside an @supports whose condition matches, by condition. */
  const selectorsUnder = (/** @type {RegExp} */ condition) => {
    const selectors = new Set();
    root.walkRules((node) => {
      if (insideSupports(node, condition)) selectors.add(node.selector);
    });
    return selectors;
  };
  const withoutAspectRatio = selectorsUnder(/^not \(aspect-ratio/);
  const withoutFlexGap = selectorsUnder(/^not \(inset/);

  root.walkDecls((decl) => {
    const parent = /** @type {import("postcss").Rule} */ (decl.parent);
    const siblings = parent.nodes.filter((node) => node.type === "decl");
    const [word, fn] = MATH.exec(decl.value) ?? [];
    if (word && fn) {
      const before = siblings.slice(0, siblings.indexOf(decl));
      const plain = before.some((node) => node.prop === decl.prop && !MATH.test(node.value));
      if (!plain && !insideSupports(decl, new RegExp(`${fn}\\(`)))
        report({ result, ruleName, node: decl, message: messages.math(fn), word });
    }
    if (decl.prop === "aspect-ratio" && !insideSupports(decl, /aspect-ratio/) && !withoutAspectRatio.has(parent.selector)) {
      report({ result, ruleName, node: decl, message: messages.aspectRatio() });
    }
    if (GAP.test(decl.prop) && !insideSupports(decl, /inset/)) {
      const flex = siblings.some((node) => node.prop === "display" && /flex/.test(node.value));
      if (flex && !withoutFlexGap.has(parent.selector)) report({ result, ruleName, node: decl, message: messages.flexGap() });
    }
    if (decl.prop === "inset") report({ result, ruleName, node: decl, message: messages.inset() });
    if (decl.prop === "overflow-wrap" && decl.value === "anywhere") {
      if (!siblings.some((node) => node.prop === "word-break" && node.value === "break-word")) {
        report({ result, ruleName, node: decl, message: messages.anywhere() });
      }
    }
  });

  root.walkRules((node) => {
    if (node.selector.includes(":has(") && node.selectors.length > 1) report({ result, ruleName, node, message: messages.has() });
  });
};
rule.ruleName = ruleName;
rule.messages = messages;

export default createPlugin(ruleName, rule);
