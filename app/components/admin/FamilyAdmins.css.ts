import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const section = style({ display: "grid", gap: vars.space.lg, scrollMarginTop: vars.space.lg });
export const intro = style({ margin: 0 });
export const forms = style({
  display: "grid",
  gap: vars.space.lg,
  gridTemplateColumns: ["minmax(0, 1fr)", "repeat(auto-fit, minmax(min(20rem, 100%), 1fr))"],
  alignItems: "start",
});
/** The new invitation link: framed in the accent colour, the whole link as text to select and copy. */
export const invitation = style({
  display: "grid",
  gap: vars.space.md,
  padding: vars.space.lg,
  border: `2px solid ${vars.color.accent}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
});
export const linkText = style({
  margin: 0,
  padding: vars.space.sm,
  fontFamily: "monospace",
  wordBreak: "break-word",
  overflowWrap: "anywhere",
  userSelect: "all",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.page,
});
export const linkActions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });
flexGapFallback(linkActions, vars.space.sm, "wrap");
/** The row's buttons side by side, wrapping on a phone; margins rather than gap, for old Safari. */
export const rowForm = style({ display: "inline-block", margin: `0 ${vars.space.sm} ${vars.space.xs} 0` });
