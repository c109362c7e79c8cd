import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

/** The warning that an address to print or hand out will not open for guests. */
export const addressWarning = style({
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  margin: `0 0 ${vars.space.md}`,
  background: vars.color.surface,
  color: vars.color.text,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});
export const addressWarningText = style({ margin: 0 });
