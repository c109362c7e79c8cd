import { globalStyle, style } from "@vanilla-extract/css";
import { card } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";
import { WITHOUT_ASPECT_RATIO, aspectRatioFallback, flexGapFallback } from "~/styles/fallbacks";

export const loginWrap = style({ display: "grid", placeItems: "center", padding: `${vars.space.xl} ${vars.space.md}` });
export const loginCard = style([card, { width: ["100%", "min(28rem, 100%)"], padding: vars.space.xl }]);
export const loginTitle = style({ marginTop: 0, textAlign: "center" });

export const header = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-start",
  justifyContent: "space-between",
  gap: vars.space.md,
  marginBottom: vars.space.lg,
});
flexGapFallback(header, vars.space.md, "wrap");
export const title = style({ margin: 0 });

export const tabs = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.xs,
  borderBottom: `2px solid ${vars.color.border}`,
  marginBottom: vars.space.lg,
});
flexGapFallback(tabs, vars.space.xs, "wrap");
export const tab = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: vars.layout.tapTarget,
  padding: `${vars.space.xs} ${vars.space.md}`,
  color: vars.color.text,
  textDecoration: "none",
  fontWeight: 600,
  borderRadius: `${vars.radius.sm} ${vars.radius.sm} 0 0`,
  marginBottom: "-2px",
  borderBottom: "4px solid transparent",
  selectors: { "&:hover": { background: vars.color.surfaceMuted } },
});
export const activeTab = style({ borderBottomColor: vars.color.accent, color: vars.color.accent });

export const panel = style({ minHeight: "12rem" });

export const tableWrap = style([card, { overflowX: "auto", padding: 0 }]);
export const table = style({ width: "100%", borderCollapse: "collapse" });
globalStyle(`${table} th, ${table} td`, {
  textAlign: "left",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: "top",
});
globalStyle(`${table} th`, { background: vars.color.surfaceMuted, color: vars.color.heading });

// On a phone each row becomes a card: every cell on its own line under its
// column's name (from data-label), the buttons in reach, nothing scrolling sideways.
const PHONE = "screen and (max-width: 700px)";
globalStyle(`${table}, ${table} tbody, ${table} tr, ${table} td`, { "@media": { [PHONE]: { display: "block", width: "100%" } } });
globalStyle(`${table} thead`, {
  "@media": { [PHONE]: { position: "absolute", width: 1, height: 1, overflow: "hidden", clip: "rect(0 0 0 0)" } },
});
globalStyle(`${table} tr`, { "@media": { [PHONE]: { borderBottom: `2px solid ${vars.color.border}`, padding: `${vars.space.sm} 0` } } });
globalStyle(`${table} td`, { "@media": { [PHONE]: { borderBottom: "none", padding: `${vars.space.xs} ${vars.space.md}` } } });
globalStyle(`${table} td[data-label]::before`, {
  "@media": {
    [PHONE]: { content: "attr(data-label)", display: "block", fontWeight: 600, fontSize: vars.size.small, color: vars.color.textMuted },
  },
});
/** A pending memory's message, shortened in PendingMemories.tsx: wrapped over a few lines, line breaks kept. */
export const truncate = style({
  maxWidth: "32rem",
  whiteSpace: "pre-line",
  wordBreak: "break-word",
  overflowWrap: "anywhere",
  "@media": { [PHONE]: { maxWidth: "none" } },
});

/** The second step before something that cannot be undone. */
export const confirm = style([
  card,
  { borderColor: vars.color.danger, borderWidth: 2, padding: vars.space.lg, marginBottom: vars.space.lg },
]);
export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.xs, alignItems: "center" });
flexGapFallback(actions, vars.space.xs, "wrap");

export const stats = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fit, minmax(14rem, 1fr))",
  marginBottom: vars.space.lg,
});
export const stat = style([card, { padding: vars.space.lg }]);
export const statValue = style({ fontSize: vars.size.h1, fontWeight: 700, margin: `${vars.space.xs} 0`, color: vars.color.heading });
export const statCaption = style({ margin: 0, color: vars.color.textMuted });
export const sectionTitle = style({ marginTop: 0 });

export const grid = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fill, minmax(15rem, 1fr))",
  listStyle: "none",
  padding: 0,
  margin: 0,
});
export const uploadCard = style([card, { padding: vars.space.md, display: "grid", gap: vars.space.xs }]);
export const thumbLink = style({
  display: "block",
  position: "relative",
  aspectRatio: "4 / 3",
  borderRadius: vars.radius.sm,
  overflow: "hidden",
  background: vars.color.surfaceMuted,
});
aspectRatioFallback(thumbLink, 3 / 4);
globalStyle(`${thumbLink} > *`, {
  "@supports": { [WITHOUT_ASPECT_RATIO]: { position: "absolute", top: 0, left: 0, width: "100%", height: "100%" } },
});
export const thumb = style({ width: "100%", height: "100%", objectFit: "cover", display: "block" });
export const videoPlaceholder = style({
  display: "grid",
  placeItems: "center",
  height: "100%",
  color: vars.color.textMuted,
  fontWeight: 600,
});
export const badge = style({
  justifySelf: "start",
  padding: `2px ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  background: vars.color.accent,
  color: vars.color.onAccent,
  fontSize: vars.size.small,
  fontWeight: 700,
});
export const cardText = style({ margin: 0, wordBreak: "break-word", overflowWrap: "anywhere" });
/** Where an upload's processing stands (waiting, being prepared, ready): a quiet framed note. */
export const processingNote = style({
  margin: 0,
  padding: vars.space.sm,
  borderLeft: `4px solid ${vars.color.border}`,
  background: vars.color.surfaceMuted,
  color: vars.color.text,
});
/** Why an upload could not be processed: the same note, in the danger colour. */
export const problem = style([processingNote, { borderLeftColor: vars.color.danger, wordBreak: "break-word", overflowWrap: "anywhere" }]);

export const form = style([card, { padding: vars.space.xl, marginBottom: vars.space.xl }]);
export const poemList = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.md });
export const poemCard = style([card, { padding: vars.space.lg }]);
export const poemContent = style({ whiteSpace: "pre-wrap", margin: `${vars.space.sm} 0` });

export const exportCard = style([card, { padding: vars.space.lg, marginBottom: vars.space.md }]);

export const storageNote = style({
  margin: `0 0 ${vars.space.lg}`,
  color: vars.color.textMuted,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});
export const storageFull = style({ display: "block", color: vars.color.text, fontWeight: 700 });

/** The Published view: its two lists (memories, photos and videos), the search and the pages. */
export const subTabs = style({ display: "flex", flexWrap: "wrap", gap: vars.space.xs, marginBottom: vars.space.md });
flexGapFallback(subTabs, vars.space.xs, "wrap");
export const searchForm = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.sm,
  marginBottom: vars.space.lg,
});
flexGapFallback(searchForm, vars.space.sm, "wrap");
export const searchField = style({ display: "grid", gap: vars.space.xs, flex: "1 1 14rem", minWidth: 0 });
export const memoryList = style({ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: vars.space.md });
export const memoryCard = style([card, { padding: vars.space.lg, display: "grid", gap: vars.space.sm, minWidth: 0 }]);
export const cardHeading = style({ margin: 0, wordBreak: "break-word", overflowWrap: "anywhere" });
export const memoryText = style({ margin: 0, whiteSpace: "pre-wrap", wordBreak: "break-word", overflowWrap: "anywhere" });
/** "Hidden from visitors": the quiet badge of an unpublished item. */
export const hiddenBadge = style([
  badge,
  { background: vars.color.surfaceMuted, color: vars.color.text, border: `1px solid ${vars.color.border}` },
]);
export const editedNote = style({ margin: 0, color: vars.color.textMuted, wordBreak: "break-word", overflowWrap: "anywhere" });
export const pager = style({
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  gap: vars.space.md,
  marginTop: vars.space.lg,
});
flexGapFallback(pager, vars.space.md, "wrap");
export const confirmPicture = style({
  display: "block",
  maxWidth: ["12rem", "min(12rem, 100%)"],
  borderRadius: vars.radius.sm,
  marginBottom: vars.space.md,
});
/** A section's own "Settings Saved", under its heading (where a save without JavaScript lands). */
export const savedNote = style({
  margin: `0 0 ${vars.space.md}`,
  padding: vars.space.md,
  border: `2px solid ${vars.color.success}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
});
/** The Site tab's short list of its parts. */
export const pageIndex = style({ marginBottom: vars.space.lg });
export const pageIndexList = style({ margin: 0, paddingLeft: vars.space.lg, display: "grid", gap: vars.space.xs });
/** An error summary: what was refused, each message a link to its field. */
export const errorSummary = style({
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.md,
  background: vars.color.surface,
  selectors: { "&:focus": { outline: `3px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});
export const errorSummaryTitle = style({ margin: 0, fontWeight: 700, color: vars.color.danger });
export const errorSummaryList = style({ margin: `${vars.space.xs} 0 0`, paddingLeft: vars.space.lg });
/** The admin home's "Make it yours" list. */
export const setupChecklist = style({
  border: `2px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  marginBottom: vars.space.lg,
  background: vars.color.surface,
});

/** The count of a tab with work waiting (Pending Memories, Pending Uploads). */
export const waitingCount = style({
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.round,
  background: vars.color.accent,
  color: vars.color.onAccent,
  fontWeight: 700,
});
/** A text not yet translated (the Site tab's translations): said in words, not by colour alone. */
export const missingNote = style({ display: "block", fontWeight: 700, color: vars.color.text });
