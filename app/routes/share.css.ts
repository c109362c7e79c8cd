import { style, globalStyle } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const form = style([card, { padding: vars.space.xl, marginBottom: vars.space.xl }]);

/** The star of "Name*": set off by about a space's width, so it looks like the guest book's "Name *". */
export const requiredMark = style({ marginLeft: "0.28em", selectors: { '[dir="rtl"] &': { marginLeft: 0, marginRight: "0.28em" } } });

export const fileInput = style({
  display: "block",
  width: "100%",
  minHeight: vars.layout.tapTarget,
  padding: vars.space.sm,
  border: `2px dashed ${vars.color.controlBorder}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
  fontSize: vars.size.base,
});

export const confirmation = style([
  card,
  {
    padding: vars.space.lg,
    marginBottom: vars.space.xl,
    borderLeft: `6px solid ${vars.color.success}`,
    selectors: { '[dir="rtl"] &': { borderLeft: "none", borderRight: `6px solid ${vars.color.success}` } },
  },
]);

export const recent = style([card, { padding: vars.space.lg, marginBottom: vars.space.xl }]);
globalStyle(`${recent} ul`, { margin: 0, paddingLeft: vars.space.lg, wordBreak: "break-word", overflowWrap: "anywhere" });

export const notes = style({ color: vars.color.textMuted, fontSize: vars.size.small });
globalStyle(`${notes} p`, { margin: `0 0 ${vars.space.xs}` });

/** "Leave a voice memory", after the photos and their notes. */
export const voice = style({ marginTop: vars.space.xl });
globalStyle(`[dir="rtl"] ${recent} ul`, { paddingLeft: 0, paddingRight: vars.space.lg });
