import { keyframes, style, styleVariants } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

export const list = style({ display: "grid", gap: vars.space.lg });

export const poem = style([card, { padding: vars.space.xl }]);

export const title = style({ fontSize: vars.size.h3, marginBottom: vars.space.xs });

export const byline = style({ color: vars.color.textMuted, marginBottom: vars.space.xs });

/** "Added 3 days ago": quiet, between the author and the words. */
export const added = style({ color: vars.color.textMuted, fontSize: vars.size.small, marginBottom: vars.space.lg });

export const content = style({
  whiteSpace: "pre-line",
  fontFamily: vars.font.heading,
  fontSize: vars.size.large,
  lineHeight: 1.7,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

const pulse = keyframes({
  "0%, 100%": { opacity: 1 },
  "50%": { opacity: 0.5 },
});

export const skeletonCard = style([card, { padding: vars.space.xl, display: "grid", gap: vars.space.sm }]);

const line = style({
  height: "1rem",
  borderRadius: vars.radius.sm,
  background: vars.color.surfaceMuted,
  animation: `${pulse} 1.5s ease-in-out infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } },
});

export const skeletonLine = styleVariants({
  full: [line, { width: "100%" }],
  twoThirds: [line, { width: "66%" }],
  half: [line, { width: "50%" }],
  third: [line, { width: "33%" }],
});

export const skeletonTall = style({ height: "1.75rem" });
