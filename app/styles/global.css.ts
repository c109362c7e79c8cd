import { globalStyle } from "@vanilla-extract/css";
import { vars } from "./theme.css";

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });

globalStyle("html", {
  WebkitTextSizeAdjust: "100%",
  scrollBehavior: "smooth",
  "@media": {
    "(prefers-reduced-motion: reduce)": { scrollBehavior: "auto" },
  },
});

globalStyle("body", {
  margin: 0,
  background: vars.color.page,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.size.base,
  lineHeight: 1.6,
  minHeight: "100vh",
  display: "flex",
  flexDirection: "column",
  // Names, messages and file names are typed by visitors: one long unbroken
  // word must wrap, never widen the page on a phone. word-break: break-word
  // does the same where overflow-wrap: anywhere is not supported (Safari before 15.4).
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

globalStyle("h1, h2, h3", {
  fontFamily: vars.font.heading,
  color: vars.color.heading,
  lineHeight: 1.25,
  margin: `0 0 ${vars.space.md}`,
  fontWeight: 600,
});
globalStyle("h1", { fontSize: vars.size.h1 });
globalStyle("h2", { fontSize: vars.size.h2 });
globalStyle("h3", { fontSize: vars.size.h3 });
globalStyle("p", { margin: `0 0 ${vars.space.md}` });

globalStyle("a", { color: vars.color.accent, textUnderlineOffset: "0.15em" });
globalStyle("a:hover", { color: vars.color.accentHover });

globalStyle(":focus-visible", {
  outline: `3px solid ${vars.color.focus}`,
  outlineOffset: "2px",
});

globalStyle("img, video", { maxWidth: "100%", height: "auto" });

globalStyle("[id]", { scrollMarginTop: "5rem" });
