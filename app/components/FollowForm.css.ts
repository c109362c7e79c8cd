import { style } from "@vanilla-extract/css";
import * as f from "~/components/forms.css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

// The forms' own styles, named here: the page gets them as strings in this
// module, rather than the forms' style module as a chunk of its own.
export const { field, label, input, errors, checkboxRow, checkbox, honeypot } = f;

export const card_ = style([card, { padding: vars.space.xl, marginTop: vars.space.xl }]);

export const topics = style({ border: 0, margin: `0 0 ${vars.space.md}`, padding: 0, minWidth: 0 });

export const legend = style({ fontWeight: 600, padding: 0, marginBottom: vars.space.sm });

export const note = style({ margin: `${vars.space.md} 0 0`, color: vars.color.textMuted, fontSize: vars.size.small });
