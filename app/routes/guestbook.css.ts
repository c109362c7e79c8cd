import { style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const section = style({ marginBottom: vars.space.xl });

export const form = style([card, { padding: vars.space.xl }]);

export const privacy = style({ margin: `${vars.space.md} 0 0`, color: vars.color.textMuted, fontSize: vars.size.small });
