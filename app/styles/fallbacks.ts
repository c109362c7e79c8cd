// Fallbacks for the browsers the site still serves (Safari 12 / iOS 12 and
// browsers of their age; docs/decisions/031-old-browsers-css.md). A browser
// drops a declaration it cannot read and keeps the ones before it, so most
// fallbacks are a plain declaration first. Flex `gap` cannot be tested for
// with @supports, so it is told by a feature that arrived with it or later.
import { globalStyle } from "@vanilla-extract/css";

/**
 * Browsers without `aspect-ratio` (Safari before 15, Chrome before 88,
 * Firefox before 89): a box gets its height from a percentage padding.
 */
export const WITHOUT_ASPECT_RATIO = "not (aspect-ratio: 1 / 1)";

/**
 * Browsers without flex `gap` (Safari before 14.1, Chrome before 84). Every
 * browser with `inset` has flex gap too (Safari 14.1, Chrome 87, Firefox 66),
 * so this holds in all that lack it (and in Chrome 84–86, which then get the
 * margins instead of the gap).
 */
const WITHOUT_FLEX_GAP = "not (inset: 0)";

/**
 * A right-to-left page (`<html dir="rtl">`, Arabic). Safari 12 lacks some
 * logical properties (margin-inline-start, inset-inline-start): a rule with
 * a physical side keeps it and adds an override under this selector.
 */
export const RTL = '[dir="rtl"]';

/** Browsers with `clamp()` (Safari 13.1, Chrome 79, Firefox 75); others keep the plain size set before. */
export const WITH_CLAMP = "(font-size: clamp(1rem, 1vw, 2rem))";

/**
 * Margins between a flex container's children where flex `gap` is not
 * supported: after each child in a row, below each child in a column, and
 * after and below each in a row that wraps (a little more space below the
 * last line there, never less between items).
 */
export function flexGapFallback(container: string, gap: string, layout: "row" | "wrap" | "column" = "row") {
  globalStyle(container, { "@supports": { [WITHOUT_FLEX_GAP]: { gap: 0 } } });
  // A right-to-left page (Arabic) runs its rows the other way: the margin goes on the other side.
  if (layout === "row") {
    globalStyle(`${container} > * + *`, { "@supports": { [WITHOUT_FLEX_GAP]: { marginLeft: gap } } });
    globalStyle(`${RTL} ${container} > * + *`, { "@supports": { [WITHOUT_FLEX_GAP]: { marginLeft: 0, marginRight: gap } } });
  }
  if (layout === "column") globalStyle(`${container} > * + *`, { "@supports": { [WITHOUT_FLEX_GAP]: { marginTop: gap } } });
  if (layout === "wrap") {
    globalStyle(`${container} > *`, { "@supports": { [WITHOUT_FLEX_GAP]: { marginRight: gap, marginBottom: gap } } });
    globalStyle(`${RTL} ${container} > *`, { "@supports": { [WITHOUT_FLEX_GAP]: { marginRight: 0, marginLeft: gap } } });
  }
}

/**
 * A box whose height is `ratio` (height / width) of its width where
 * `aspect-ratio` is not supported; its contents must be positioned over it
 * (position: absolute, with top, right, bottom and left).
 */
export function aspectRatioFallback(box: string, ratio: number) {
  globalStyle(box, { "@supports": { [WITHOUT_ASPECT_RATIO]: { height: 0, paddingBottom: `${ratio * 100}%` } } });
}
