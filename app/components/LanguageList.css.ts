import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

// A small second row under the header's name and menu (it fits beside
// nothing at 320 px, and wraps when the family chose many languages), and a
// row in the footer.

export const headerNav = style({
  maxWidth: vars.layout.content,
  margin: "0 auto",
  padding: `0 ${vars.space.md} ${vars.space.xs}`,
  fontSize: vars.size.small,
});

export const footerNav = style({ fontSize: vars.size.small });

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "flex-end",
  gap: vars.space.xs,
  selectors: { [`${footerNav} &`]: { justifyContent: "center" } },
});
flexGapFallback(list, vars.space.xs, "wrap");

const item = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: "2rem",
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
});

export const link = style([item, { color: "inherit", selectors: { [`${headerNav} &`]: { color: vars.color.accent } } }]);

/** The language being read: not a link, marked by its weight and an underline of its own. */
export const current = style([item, { fontWeight: 700, boxShadow: "inset 0 -2px 0 currentColor" }]);
