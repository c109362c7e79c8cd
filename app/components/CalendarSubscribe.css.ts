import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const subscribe = style({ margin: `${vars.space.md} 0 0` });

export const address = style({ margin: `${vars.space.sm} 0 0`, wordBreak: "break-word", overflowWrap: "anywhere" });
