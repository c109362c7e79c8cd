import { style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";

// A quiet row of lit candles: still (no flicker), drawn by one box's
// repeated background, which old browsers draw too (no flex gap, no inset).

/** Each candle's step along the row (px), and how many are drawn at most: the words say how many there are. */
export const CANDLE_STEP = 24;
export const CANDLES_DRAWN = 12;

export const section = style([card, { padding: vars.space.lg, textAlign: "center" }]);

export const count = style({ fontSize: vars.size.large, fontWeight: 600, color: vars.color.heading, margin: `${vars.space.sm} 0` });

const half = CANDLE_STEP / 2;
export const row = style({
  height: 48,
  maxWidth: "100%",
  margin: `${vars.space.md} auto`,
  backgroundRepeat: "repeat-x",
  // A flame above a stick of wax in each step.
  backgroundImage: [
    `radial-gradient(4px 7px at ${half}px 9px, ${vars.color.flame} 92%, transparent 100%)`,
    `linear-gradient(to right, transparent ${half - 5}px, ${vars.color.candleWax} ${half - 5}px, ${vars.color.candleWax} ${half + 5}px, transparent ${half + 5}px)`,
    `linear-gradient(to right, transparent ${half - 6}px, ${vars.color.border} ${half - 6}px, ${vars.color.border} ${half + 6}px, transparent ${half + 6}px)`,
  ].join(", "),
  backgroundSize: `${CANDLE_STEP}px 18px, ${CANDLE_STEP}px 28px, ${CANDLE_STEP}px 30px`,
  backgroundPosition: "0 0, 0 19px, 0 18px",
});

// Right to left (Arabic): the names and the form start at the right.
const startAligned = { textAlign: "left", selectors: { '[dir="rtl"] &': { textAlign: "right" } } } as const;

export const names = style({ listStyle: "none", padding: 0, maxWidth: "32rem", margin: `${vars.space.md} auto`, ...startAligned });

export const named = style({ padding: `${vars.space.sm} 0`, borderTop: `1px solid ${vars.color.border}` });

export const name = style({ display: "block", fontWeight: 600, color: vars.color.heading });

export const form = style({ maxWidth: "32rem", margin: `${vars.space.md} auto 0`, ...startAligned });

export const button = style({ width: "100%" });
