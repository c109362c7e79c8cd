import { style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const lifeLine = style({ color: vars.color.textMuted, margin: `${vars.space.xs} 0 0` });

/** Inline-block: the half wraps inside itself only when it is wider than the screen. */
export const keepTogether = style({ display: "inline-block" });

export const photo = style({ margin: `0 0 ${vars.space.xl}` });

/** Never wider than the column; its height follows from width/height (no aspect-ratio, for Safari 12). */
export const image = style({ display: "block", maxWidth: "100%", height: "auto", borderRadius: vars.radius.md });

export const story = style([
  card,
  {
    padding: vars.space.xl,
    fontSize: vars.size.large,
    lineHeight: 1.7,
    overflowWrap: "break-word",
    wordWrap: "break-word",
    "@media": { "screen and (max-width: 30rem)": { padding: vars.space.lg } },
  },
]);

export const storyHeading = style({ fontSize: vars.size.h3, margin: `${vars.space.lg} 0 ${vars.space.sm}` });

export const storyParagraph = style({ margin: `0 0 ${vars.space.md}`, whiteSpace: "pre-line" });

export const timelineTitle = style({ margin: `${vars.space.xxl} 0 ${vars.space.lg}` });

export const timeline = style({ listStyle: "none", margin: 0, padding: 0 });

export const moment = style({
  position: "relative",
  margin: `0 0 ${vars.space.lg}`,
  padding: `0 0 0 ${vars.space.lg}`,
  borderLeft: `3px solid ${vars.color.border}`,
  overflowWrap: "break-word",
  wordWrap: "break-word",
});

export const momentDate = style({ display: "block", color: vars.color.textMuted, fontWeight: 700 });

export const momentTitle = style({ fontSize: vars.size.large, margin: `${vars.space.xs} 0` });

export const momentText = style({ margin: `0 0 ${vars.space.sm}`, whiteSpace: "pre-line" });

export const momentPhoto = style({ display: "block", maxWidth: "100%", width: "320px", height: "auto", borderRadius: vars.radius.sm });
