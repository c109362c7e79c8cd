import { globalStyle, style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

// Without JavaScript the "dialog" is a card in the page flow; once the page
// is hydrated it floats over the list as a modal.
export const backdrop = style({ marginBottom: vars.space.xl });
globalStyle(`html[data-hydrated="true"] ${backdrop}`, {
  position: "fixed",
  top: 0,
  right: 0,
  bottom: 0,
  left: 0,
  zIndex: 40,
  display: "grid",
  placeItems: "center",
  padding: vars.space.md,
  margin: 0,
  background: "rgba(20, 14, 10, 0.6)",
});

export const dialog = style([
  card,
  {
    width: ["100%", "min(46rem, 100%)"],
    maxHeight: "100%",
    overflow: "auto",
    padding: vars.space.xl,
    "@media": { "screen and (max-width: 40em)": { padding: vars.space.md } },
  },
]);

export const header = style({ display: "flex", alignItems: "flex-start", justifyContent: "space-between", gap: vars.space.md });
flexGapFallback(header, vars.space.md);
export const title = style({ marginTop: 0, minWidth: 0, wordBreak: "break-word", overflowWrap: "anywhere" });
/** Never squeezed into "Clo/se" by a long title on a phone. */
export const close = style({
  flexShrink: 0,
  whiteSpace: "nowrap",
  display: "inline-flex",
  alignItems: "center",
  minHeight: vars.layout.tapTarget,
  padding: `0 ${vars.space.md}`,
  fontWeight: 600,
});

/** Labels beside their values where there is room; above them on a phone, where two columns leave two words a line. */
const NARROW = "screen and (max-width: 40em)";
export const details = style({
  display: "grid",
  gridTemplateColumns: "max-content minmax(0, 1fr)",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `0 0 ${vars.space.lg}`,
  "@media": { [NARROW]: { gridTemplateColumns: "minmax(0, 1fr)", rowGap: 0 } },
});
globalStyle(`${details} dt`, { fontWeight: 700, color: vars.color.heading });
globalStyle(`${details} dt:not(:first-child)`, { "@media": { [NARROW]: { marginTop: vars.space.sm } } });
globalStyle(`${details} dd`, { margin: 0, wordBreak: "break-word", overflowWrap: "anywhere" });
export const message = style({ whiteSpace: "pre-wrap" });
export const buttons = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });
flexGapFallback(buttons, vars.space.sm, "wrap");
export const preview = style({
  display: "block",
  maxWidth: "100%",
  maxHeight: "60vh",
  margin: `0 auto ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  background: "#000",
});

/** A voice memory's player and its line, where a photo's preview is. */
export const voice = style({ display: "grid", gap: vars.space.sm, marginBottom: vars.space.md });
