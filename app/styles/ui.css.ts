import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "./theme.css";
import { flexGapFallback, RTL } from "./fallbacks";

/** Shared building blocks: page container, cards, buttons, visually hidden text. */

export const main = style({
  flex: "1 0 auto",
  width: "100%",
});

export const container = style({
  width: "100%",
  maxWidth: vars.layout.content,
  margin: "0 auto",
  padding: `${vars.space.xl} ${vars.space.md}`,
});

export const narrow = style([container, { maxWidth: vars.layout.narrow }]);

export const pageHeader = style({
  textAlign: "center",
  marginBottom: vars.space.xl,
});

export const subtitle = style({
  color: vars.color.textMuted,
  fontSize: vars.size.large,
  margin: 0,
});

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.card,
  padding: vars.space.lg,
});

export const muted = style({ color: vars.color.textMuted });

export const emptyState = style([
  card,
  {
    textAlign: "center",
    color: vars.color.textMuted,
    padding: vars.space.xl,
  },
]);

const buttonBase = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.sm,
  minHeight: vars.layout.tapTarget,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.round,
  border: "2px solid transparent",
  fontFamily: "inherit",
  fontSize: vars.size.base,
  fontWeight: 600,
  lineHeight: 1.2,
  textDecoration: "none",
  cursor: "pointer",
  transition: "background-color 0.15s ease, color 0.15s ease",
  selectors: {
    "&:disabled, &[aria-disabled='true']": { opacity: 0.65, cursor: "not-allowed" },
  },
});
flexGapFallback(buttonBase, vars.space.sm);

export const button = styleVariants({
  primary: [
    buttonBase,
    {
      background: vars.color.accent,
      color: vars.color.onAccent,
      selectors: {
        "&:hover": { background: vars.color.accentHover, color: vars.color.onAccent },
      },
    },
  ],
  secondary: [
    buttonBase,
    {
      background: vars.color.surface,
      color: vars.color.accent,
      borderColor: vars.color.accent,
      selectors: {
        "&:hover": { background: vars.color.surfaceMuted, color: vars.color.accentHover },
      },
    },
  ],
  onDark: [
    buttonBase,
    {
      background: vars.color.surface,
      color: vars.color.heading,
      selectors: { "&:hover": { background: vars.color.surfaceMuted, color: vars.color.heading } },
    },
  ],
  ghostOnDark: [
    buttonBase,
    {
      background: "transparent",
      color: vars.color.onHero,
      borderColor: vars.color.onHero,
      selectors: {
        "&:hover": { background: "rgba(255, 255, 255, 0.15)", color: vars.color.onHero },
      },
    },
  ],
  danger: [
    buttonBase,
    {
      background: vars.color.danger,
      color: vars.color.onDanger,
      selectors: { "&:hover": { filter: "brightness(0.9)" } },
    },
  ],
});

export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
});

export const skipLink = style({
  position: "absolute",
  left: vars.space.md,
  top: "-4rem",
  zIndex: 100,
  background: vars.color.surface,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
  selectors: { "&:focus": { top: vars.space.md }, [`${RTL} &`]: { left: "auto", right: vars.space.md } },
});

/** A row of buttons that wraps on a phone. */
export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "center",
  gap: vars.space.md,
  // As a list (so text browsers show the links apart): no bullets, no indent.
  selectors: { "ul&": { listStyle: "none", margin: 0, padding: 0 } },
});
flexGapFallback(actions, vars.space.md, "wrap");
