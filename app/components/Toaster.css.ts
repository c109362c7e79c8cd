import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback, RTL } from "~/styles/fallbacks";

export const inlineRegion = style({
  maxWidth: vars.layout.narrow,
  margin: "0 auto",
  padding: `0 ${vars.space.md}`,
  // Each on its own: a browser without :has() (Safari before 15.4) drops only that
  // rule, and shows the empty region as it is, without height.
  selectors: { "&:empty": { display: "none" }, "&:has(> div:empty)": { display: "none" } },
});

export const floatingRegion = style({
  position: "fixed",
  zIndex: 100,
  bottom: vars.space.md,
  left: vars.space.md,
  right: vars.space.md,
  "@media": {
    "screen and (min-width: 48rem)": {
      left: "auto",
      maxWidth: "420px",
      width: "100%",
      // Right to left, the toast sits in the other corner.
      selectors: { [`${RTL} &`]: { left: vars.space.md, right: "auto" } },
    },
  },
  outline: "none",
  selectors: {
    "&:focus-visible": { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px" },
  },
});

const toastBase = style({
  display: "flex",
  alignItems: "flex-start",
  justifyContent: "space-between",
  gap: vars.space.md,
  marginTop: vars.space.md,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.card,
  touchAction: "pan-y",
  transition: "transform 0.15s ease, opacity 0.15s ease",
  "@media": { "(prefers-reduced-motion: reduce)": { transition: "none" } },
});
flexGapFallback(toastBase, vars.space.md);

export const toast = styleVariants({
  default: [
    toastBase,
    {
      background: vars.color.surface,
      color: vars.color.text,
      border: `1px solid ${vars.color.border}`,
      borderLeft: `6px solid ${vars.color.success}`,
      selectors: { [`${RTL} &`]: { borderLeft: `1px solid ${vars.color.border}`, borderRight: `6px solid ${vars.color.success}` } },
    },
  ],
  destructive: [toastBase, { background: vars.color.danger, color: vars.color.onDanger }],
});

export const title = style({ fontWeight: 700, margin: 0 });

export const description = style({ margin: `${vars.space.xs} 0 0` });

export const close = style({
  flexShrink: 0,
  minWidth: vars.layout.tapTarget,
  minHeight: vars.layout.tapTarget,
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: "inherit",
  fontSize: "1.5rem",
  lineHeight: 1,
  cursor: "pointer",
});
