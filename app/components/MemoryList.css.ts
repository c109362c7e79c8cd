import { style } from "@vanilla-extract/css";
import { card as cardBase } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: vars.space.md });

export const card = style([cardBase, { display: "flex", gap: vars.space.md, alignItems: "flex-start" }]);
flexGapFallback(card, vars.space.md);

export const avatar = style({
  flexShrink: 0,
  width: "3rem",
  height: "3rem",
  borderRadius: vars.radius.round,
  background: vars.color.accent,
  color: vars.color.onAccent,
  display: "grid",
  placeItems: "center",
  fontFamily: vars.font.heading,
  fontSize: vars.size.large,
  fontWeight: 700,
});

export const body = style({ minWidth: 0, flex: 1 });

export const meta = style({
  margin: `0 0 ${vars.space.xs}`,
  display: "flex",
  flexWrap: "wrap",
  alignItems: "baseline",
  columnGap: vars.space.sm,
});
flexGapFallback(meta, vars.space.sm);

export const name = style({ fontWeight: 700, color: vars.color.heading });

export const time = style({ color: vars.color.textMuted, fontSize: vars.size.small });

export const message = style({ margin: 0, whiteSpace: "pre-line", wordBreak: "break-word", overflowWrap: "anywhere" });
