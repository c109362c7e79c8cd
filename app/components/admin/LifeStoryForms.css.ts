import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

export const photoChoice = style({ margin: `${vars.space.md} 0` });

export const photoSummary = style({ cursor: "pointer", fontWeight: 700, minHeight: vars.layout.tapTarget, padding: `${vars.space.xs} 0` });

export const photoFieldset = style({ border: "none", margin: 0, padding: 0, minWidth: 0 });

/** Thumbnails in rows; inline blocks, so a browser without grid or flex gap still lines them up. */
export const photoGrid = style({ listStyle: "none", margin: 0, padding: 0, maxHeight: "24rem", overflowY: "auto" });

export const photoItem = style({ display: "inline-block", verticalAlign: "top", margin: `0 ${vars.space.sm} ${vars.space.sm} 0` });

export const photoLabel = style({
  display: "inline-block",
  padding: vars.space.xs,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  cursor: "pointer",
  minHeight: vars.layout.tapTarget,
  minWidth: vars.layout.tapTarget,
});

export const photoThumb = style({ display: "block", width: "96px", height: "96px", objectFit: "cover", marginTop: vars.space.xs });

export const statusDraft = style({ fontWeight: 700, color: vars.color.textMuted });

export const statusPublished = style({ fontWeight: 700, color: vars.color.success });

export const note = style({
  padding: vars.space.md,
  borderLeft: `4px solid ${vars.color.accent}`,
  background: vars.color.surfaceMuted,
});

export const momentList = style({ listStyle: "none", margin: `0 0 ${vars.space.xl}`, padding: 0 });

export const momentRow = style({
  padding: `${vars.space.md} 0`,
  borderBottom: `1px solid ${vars.color.border}`,
  overflowWrap: "break-word",
  wordWrap: "break-word",
});
