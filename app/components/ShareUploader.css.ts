import { globalStyle } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

// The upload dialog (Uppy's Dashboard) in the site's colours and sizes, for
// older eyes and hands: text at least 18 px, buttons at least 44 px, the
// site's brown instead of Uppy's blue and green. Uppy's stylesheet loads
// after ours on /share, so these selectors start with "html body" to win.
const root = "html body .uppy-Root";

globalStyle(`${root}, ${root} *`, { fontFamily: vars.font.body });
// Every piece of text, however small Uppy made it (10–14 px).
globalStyle(`${root} :is(div, span, p, button, a, label, input, li, h1, h2, h3):not(.uppy-Dashboard-close, .uppy-Dashboard-close *)`, {
  fontSize: ["1.125rem !important", "max(1.125rem, 1em) !important"],
});
// The close button: a large round "×" on the dialog's corner, in the site's colours (Uppy's is a
// small white cross on the dimmed page, easy to miss).
globalStyle(`${root} .uppy-Dashboard-close`, {
  top: "-22px",
  right: "-22px",
  width: "48px",
  height: "48px",
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  borderRadius: vars.radius.round,
  background: vars.color.accent,
  color: vars.color.onAccent,
  fontSize: "2rem !important",
  lineHeight: 1,
  boxShadow: vars.shadow.card,
});
// On a phone Uppy's dialog fills the screen but for a 35 px strip at the top, too low for a
// 48 px button: the strip grows and the button sits in it, inside the screen's right edge.
const phone = "only screen and (max-width: 819.98px)";
globalStyle(`${root} .uppy-Dashboard--modal .uppy-Dashboard-inner`, { "@media": { [phone]: { top: "64px" } } });
globalStyle(`${root} .uppy-Dashboard-close`, { "@media": { [phone]: { top: "-56px", right: "0", insetInlineEnd: "0" } } });
globalStyle(`${root} .uppy-Dashboard-close:hover, ${root} .uppy-Dashboard-close:focus`, {
  background: vars.color.accentHover,
  color: vars.color.onAccent,
});
globalStyle(`${root} .uppy-Dashboard-AddFiles-title`, { fontSize: "1.375rem !important", color: vars.color.heading, lineHeight: 1.4 });

const buttons = [
  ".uppy-Dashboard-browse",
  ".uppy-StatusBar-actionBtn",
  ".uppy-DashboardContent-back",
  ".uppy-DashboardContent-addMore",
  ".uppy-DashboardContent-save",
  ".uppy-c-btn",
]
  .map((name) => `${root} ${name}`)
  .join(", ");
globalStyle(buttons, { minHeight: vars.layout.tapTarget, minWidth: vars.layout.tapTarget, borderRadius: vars.radius.sm });

globalStyle(`${root} .uppy-Dashboard-browse`, {
  color: vars.color.onAccent,
  background: vars.color.accent,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  margin: `${vars.space.md} 0`,
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  fontWeight: 600,
  textDecoration: "none",
  // Uppy keeps it on one line; "Choose photos and videos from this device" is wider than a phone.
  whiteSpace: "normal",
  maxWidth: "100%",
  textAlign: "center",
});
globalStyle(`${root} .uppy-Dashboard-browse:hover, ${root} .uppy-Dashboard-browse:focus`, {
  background: vars.color.accentHover,
  color: vars.color.onAccent,
  textDecoration: "none",
});
// Uppy's own rule for this button is ".uppy-StatusBar.is-waiting .uppy-StatusBar-actionBtn--upload".
const uploadButton = `${root} .uppy-StatusBar.uppy-StatusBar .uppy-StatusBar-actionBtn--upload`;
globalStyle(`${uploadButton}, ${uploadButton}.uppy-StatusBar-actionBtn--disabled:hover, ${root} .uppy-c-btn-primary`, {
  background: vars.color.accent,
  color: vars.color.onAccent,
});
globalStyle(`${uploadButton}:hover, ${root} .uppy-c-btn-primary:hover`, { background: vars.color.accentHover });
globalStyle(
  `${root} :is(.uppy-DashboardContent-back, .uppy-DashboardContent-addMore, .uppy-DashboardContent-save, .uppy-StatusBar-actionBtn--retry, .uppy-StatusBar-actionBtn--done, .uppy-StatusBar-details)`,
  {
    color: vars.color.accent,
  },
);
globalStyle(`${root} .uppy-StatusBar-actionBtn--done:is(:hover, :focus)`, {
  color: vars.color.accentHover,
  background: vars.color.surfaceMuted,
});
globalStyle(`${root} :is(.uppy-StatusBar-progress, .uppy-StatusBar.is-complete .uppy-StatusBar-progress)`, {
  background: vars.color.accent,
});
globalStyle(`${root} .uppy-StatusBar.is-complete .uppy-StatusBar-statusIndicator, ${root} .uppy-Dashboard-Item-progressIndicator`, {
  color: vars.color.success,
});
globalStyle(`${root} :is(.uppy-StatusBar.is-complete .uppy-StatusBar-progress)`, { background: vars.color.success });
globalStyle(`${root} .uppy-Dashboard-Item-name`, { wordBreak: "break-word", overflowWrap: "anywhere" });
// The site's focus ring instead of Uppy's pale blue glow.
globalStyle(`${root} .uppy-u-reset:focus-visible, ${root} button:focus-visible, ${root} a:focus-visible`, {
  outline: `3px solid ${vars.color.focus}`,
  outlineOffset: "2px",
  boxShadow: "none",
});
