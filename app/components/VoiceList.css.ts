import { style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const section = style({ marginBottom: vars.space.xl });

export const list = style({ listStyle: "none", margin: 0, padding: 0 });

export const voice = style([card, { marginBottom: vars.space.md }]);

export const who = style({ margin: 0, color: vars.color.heading, wordBreak: "break-word", overflowWrap: "anywhere" });

export const name = style({ fontWeight: 600 });

export const length = style({ color: vars.color.textMuted });

/** The browser's own controls, as wide as the card: large enough to tap on a phone. */
export const player = style({ display: "block", width: "100%", minHeight: vars.layout.tapTarget, margin: `${vars.space.sm} 0` });

/** The line as the sender typed it: it is the recording's text alternative, so it keeps its line breaks. */
export const line = style({ margin: 0, whiteSpace: "pre-line", wordBreak: "break-word", overflowWrap: "anywhere" });

export const empty = style([card, { textAlign: "center", color: vars.color.textMuted }]);

export const pages = style({ display: "flex", flexWrap: "wrap", justifyContent: "space-between", margin: `${vars.space.md} 0 0` });
