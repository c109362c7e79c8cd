// The guest book's "Loading memories…" while its data loads on client-side
// navigation: only the skeletons use it, so the guest book page does not load
// these class names in a file of their own (docs/decisions/017).
import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

const spin = keyframes({ to: { transform: "rotate(360deg)" } });

export const spinner = style({
  display: "inline-block",
  width: "1.25rem",
  height: "1.25rem",
  marginRight: vars.space.sm,
  selectors: { '[dir="rtl"] &': { marginRight: 0, marginLeft: vars.space.sm } },
  verticalAlign: "-0.2em",
  border: `3px solid ${vars.color.border}`,
  borderTopColor: vars.color.accent,
  borderRadius: vars.radius.round,
  animation: `${spin} 0.8s linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } },
});

export const loading = style({ textAlign: "center", color: vars.color.textMuted });
