import { style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const voice = style([card, { padding: vars.space.xl }]);

export const back = style({ textAlign: "center", marginTop: vars.space.xl });
