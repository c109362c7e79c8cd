import { globalStyle, style } from "@vanilla-extract/css";
import * as f from "~/components/forms.css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

// The voice form and its in-page recorder. The recorder (loaded on demand)
// fills in messages and shows or hides parts of this markup: it needs no
// class names of its own, so what it writes is styled here by where it is.

export const { field, label, hint, input, textarea, errors, checkboxRow, checkbox, honeypot, alert, alertTitle, alertList } = f;

export const section = style([card, { padding: vars.space.xl }]);

export const intro = style({ marginTop: 0 });

export const form = style({ margin: 0 });

// The buttons are inline-flex: `hidden` must still hide them.
globalStyle(`${form} [hidden], ${section} [hidden]`, { display: "none" });

globalStyle(`${alert} a`, { color: vars.color.danger, fontWeight: 600, textDecoration: "underline" });

/** As the share page draws its file field: a box as wide as the form, a large target on a phone. */
export const fileInput = style({
  display: "block",
  width: "100%",
  maxWidth: "100%",
  minHeight: vars.layout.tapTarget,
  padding: vars.space.sm,
  border: `2px dashed ${vars.color.controlBorder}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
  fontSize: vars.size.base,
  selectors: { "&[aria-invalid='true']": { borderColor: vars.color.danger } },
});

export const recorder = style({ margin: `${vars.space.xs} 0 ${vars.space.sm}` });

export const buttons = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });
flexGapFallback(buttons, vars.space.sm, "wrap");

/** The clock while recording: large enough to read at arm's length. */
export const timer = style({ fontSize: vars.size.large, fontWeight: 600, color: vars.color.heading, margin: `${vars.space.sm} 0 0` });

export const status = style({ margin: `${vars.space.sm} 0 0` });

export const player = style({ display: "block", width: "100%", marginTop: vars.space.sm });

export const orChoose = style({ margin: `${vars.space.md} 0 ${vars.space.xs}`, color: vars.color.textMuted, fontSize: vars.size.small });

export const send = style({ width: "100%" });

// Right to left, the hidden spam trap leaves the screen on the right: a page scrolls no further that way.
globalStyle(`[dir="rtl"] ${honeypot}`, { left: "auto", right: "-10000px" });
