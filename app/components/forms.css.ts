import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

// One column that never grows past its box: a date picker's own width made a 320-px page scroll sideways.
export const field = style({ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.xs, marginBottom: vars.space.md });

export const label = style({ fontWeight: 600, color: vars.color.heading });

export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.size.small });

const control = style({
  width: "100%",
  minWidth: 0,
  maxWidth: "100%",
  minHeight: vars.layout.tapTarget,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `2px solid ${vars.color.controlBorder}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  font: "inherit",
  selectors: {
    "&:focus": { borderColor: vars.color.focus },
    "&[aria-invalid='true']": { borderColor: vars.color.danger },
  },
});

export const input = control;

export const textarea = style([control, { resize: "vertical", minHeight: "8rem", lineHeight: 1.5 }]);

export const checkboxRow = style({ display: "flex", alignItems: "center", gap: vars.space.sm, minHeight: vars.layout.tapTarget });
flexGapFallback(checkboxRow, vars.space.sm);

export const checkbox = style({ width: "1.5rem", height: "1.5rem", flexShrink: 0, accentColor: vars.color.accent });

export const fieldset = style({ border: 0, padding: 0, margin: `0 0 ${vars.space.md}`, display: "grid", gap: vars.space.sm });

export const radioRow = style({ display: "flex", alignItems: "flex-start", gap: vars.space.sm, minHeight: vars.layout.tapTarget });
flexGapFallback(radioRow, vars.space.sm);

export const radioLabel = style({ fontWeight: 600 });

export const errors = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  color: vars.color.danger,
  fontWeight: 600,
  fontSize: vars.size.small,
});

export const honeypot = style({
  position: "absolute",
  left: "-10000px",
  width: 1,
  height: 1,
  overflow: "hidden",
  // Right to left, off the start side (the right), where a page never scrolls.
  selectors: { '[dir="rtl"] &': { left: "auto", right: "-10000px" } },
});

export const alert = style({
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
  color: vars.color.danger,
  background: vars.color.surface,
});

export const alertTitle = style({ fontWeight: 700, margin: 0 });

export const alertMessage = style({ margin: `${vars.space.xs} 0 0` });

export const alertList = style({ margin: `${vars.space.xs} 0 ${vars.space.sm}`, paddingLeft: vars.space.lg });

export const alertLink = style({ color: vars.color.danger, fontWeight: 600, textDecoration: "underline" });
