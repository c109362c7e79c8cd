import { createGlobalTheme, createThemeContract, globalStyle } from "@vanilla-extract/css";
import { WITH_CLAMP } from "./fallbacks";

export const vars = createThemeContract({
  color: {
    page: null,
    surface: null,
    surfaceMuted: null,
    text: null,
    textMuted: null,
    heading: null,
    accent: null,
    accentHover: null,
    onAccent: null,
    border: null,
    controlBorder: null,
    focus: null,
    footer: null,
    onFooter: null,
    heroOverlay: null,
    onHero: null,
    danger: null,
    onDanger: null,
    success: null,
    stage: null,
    onStage: null,
    onStageMuted: null,
    stageOverlay: null,
    flame: null,
    candleWax: null,
  },
  font: {
    body: null,
    heading: null,
  },
  size: {
    small: null,
    base: null,
    large: null,
    h3: null,
    h2: null,
    h1: null,
    hero: null,
  },
  space: {
    xs: null,
    sm: null,
    md: null,
    lg: null,
    xl: null,
    xxl: null,
  },
  radius: {
    sm: null,
    md: null,
    lg: null,
    round: null,
  },
  shadow: {
    card: null,
  },
  layout: {
    content: null,
    narrow: null,
    tapTarget: null,
  },
});

// Colours are chosen for at least 4.5:1 contrast on their backgrounds.
createGlobalTheme(":root", vars, {
  color: {
    page: "#faf7f2",
    surface: "#ffffff",
    surfaceMuted: "#f1ebe2",
    text: "#2b2622",
    textMuted: "#5c534b",
    heading: "#3b2a20",
    accent: "#6b3f2a",
    accentHover: "#4f2d1d",
    onAccent: "#ffffff",
    border: "#d9cfc3",
    // Form controls need 3:1 against their background (WCAG 1.4.11): 4.1:1 on white.
    controlBorder: "#8c7b6b",
    focus: "#1a5fb4",
    footer: "#2f2924",
    onFooter: "#f6f1ea",
    heroOverlay: "rgba(20, 14, 10, 0.55)",
    onHero: "#ffffff",
    danger: "#a4262c",
    onDanger: "#ffffff",
    success: "#2d6a3e",
    // The reception slideshow: a dark screen that lets photos stand out on a projector or TV.
    stage: "#0b0907",
    onStage: "#f6f1ea",
    onStageMuted: "#d9cfc3",
    stageOverlay: "rgba(11, 9, 7, 0.78)",
    // The lit candles' row: drawn, never text, so no contrast is asked of them.
    flame: "#e8a33d",
    candleWax: "#f3e9da",
  },
  font: {
    body: '"Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    heading: 'Georgia, "Times New Roman", serif',
  },
  size: {
    small: "1rem",
    base: "1.125rem",
    large: "1.25rem",
    h3: "1.5rem",
    // Their smallest sizes: the fluid ones are set below, where clamp() is supported.
    h2: "1.75rem",
    h1: "2.1rem",
    hero: "2.5rem",
  },
  space: {
    xs: "0.25rem",
    sm: "0.5rem",
    md: "1rem",
    lg: "1.5rem",
    xl: "2.5rem",
    xxl: "4rem",
  },
  radius: {
    sm: "6px",
    md: "10px",
    lg: "16px",
    round: "999px",
  },
  shadow: {
    card: "0 1px 2px rgba(43, 38, 34, 0.08), 0 4px 16px rgba(43, 38, 34, 0.06)",
  },
  layout: {
    content: "72rem",
    narrow: "48rem",
    tapTarget: "44px",
  },
});

// Headings grow with the screen where clamp() is supported (Safari 13.1, Chrome 79,
// Firefox 75). Elsewhere the sizes above stay: a custom property holding a value
// the browser cannot compute would leave the headings at the body's size.
globalStyle(":root", {
  "@supports": {
    [WITH_CLAMP]: {
      vars: {
        [vars.size.h2]: "clamp(1.75rem, 1.4rem + 1.5vw, 2.25rem)",
        [vars.size.h1]: "clamp(2.1rem, 1.6rem + 2.2vw, 3rem)",
        [vars.size.hero]: "clamp(2.5rem, 1.8rem + 4vw, 4.5rem)",
      },
    },
  },
});
