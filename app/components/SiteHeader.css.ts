import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

const desktop = "screen and (min-width: 60rem)";

export const header = style({
  position: "sticky",
  top: 0,
  zIndex: 50,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const inner = style({
  maxWidth: vars.layout.content,
  margin: "0 auto",
  padding: `${vars.space.sm} ${vars.space.md}`,
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
});
flexGapFallback(inner, vars.space.md);

export const brand = style({
  fontFamily: vars.font.heading,
  fontSize: vars.size.large,
  fontWeight: 600,
  color: vars.color.heading,
  textDecoration: "none",
  minHeight: vars.layout.tapTarget,
  display: "flex",
  alignItems: "center",
  // A long name wraps (and, a word longer than the screen, breaks) so the buttons beside it keep their room.
  minWidth: 0,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

export const desktopNav = style({
  display: "none",
  "@media": { [desktop]: { display: "block" } },
});

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  gap: vars.space.xs,
});
flexGapFallback(list, vars.space.xs);

export const link = style({
  display: "flex",
  alignItems: "center",
  minHeight: vars.layout.tapTarget,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  color: vars.color.text,
  textDecoration: "none",
  fontWeight: 500,
  selectors: {
    "&:hover": { background: vars.color.surfaceMuted, color: vars.color.heading },
  },
});

export const linkActive = style([
  link,
  {
    background: vars.color.accent,
    color: vars.color.onAccent,
    selectors: {
      "&:hover": { background: vars.color.accentHover, color: vars.color.onAccent },
    },
  },
]);

export const mobileBar = style({
  display: "flex",
  flexShrink: 0,
  alignItems: "center",
  gap: vars.space.sm,
  "@media": { [desktop]: { display: "none" } },
});
flexGapFallback(mobileBar, vars.space.sm);

const iconButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.xs,
  minWidth: vars.layout.tapTarget,
  minHeight: vars.layout.tapTarget,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.controlBorder}`,
  background: vars.color.surface,
  color: vars.color.heading,
  cursor: "pointer",
  fontWeight: 600,
  textDecoration: "none",
  // "Menu" is one word: never "Men / u" when the memorial's name beside it is long.
  whiteSpace: "nowrap",
});
flexGapFallback(iconButton, vars.space.xs);

export const homeButton = iconButton;

export const menu = style({});

export const menuToggle = style([
  iconButton,
  {
    listStyle: "none",
    selectors: {
      "&::-webkit-details-marker": { display: "none" },
      [`${menu}[open] &`]: { background: vars.color.surfaceMuted },
    },
  },
]);

export const mobileNav = style({
  position: "absolute",
  left: 0,
  right: 0,
  top: "100%",
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.card,
  padding: vars.space.sm,
});

export const mobileList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.xs,
});
