import { style } from "@vanilla-extract/css";
import { vars } from "~/styles/theme.css";

// A voice memory in the admin's lists and preview: where a photo has its
// picture, a quiet panel with who it is from, how long, and the player.

export const panel = style({
  display: "grid",
  gap: vars.space.sm,
  // Narrow sides: the player's timeline needs the room in a card of the grid.
  padding: `${vars.space.md} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surfaceMuted,
  minWidth: 0,
});

export const heading = style({
  display: "flex",
  alignItems: "center",
  margin: 0,
  fontFamily: vars.font.heading,
  fontSize: vars.size.large,
  color: vars.color.heading,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

/** The few bars of a sound, drawn beside the heading (decorative). */
export const mark = style({ flexShrink: 0, width: "1.75rem", height: "1.75rem", marginRight: vars.space.sm, color: vars.color.accent });

/** The browser's own player, the width of the card (its controls are large enough to tap on a phone). */
export const player = style({ display: "block", width: "100%", minHeight: vars.layout.tapTarget });

/** The sender's typed line: what the voice says, for anyone who cannot listen. */
export const line = style({
  margin: 0,
  paddingLeft: vars.space.sm,
  borderLeft: `3px solid ${vars.color.border}`,
  fontStyle: "italic",
  whiteSpace: "pre-wrap",
  wordBreak: "break-word",
  overflowWrap: "anywhere",
});

/** "Shared with the family only": a framed note, as the processing note is. */
export const familyOnly = style({
  margin: 0,
  padding: vars.space.sm,
  borderLeft: `4px solid ${vars.color.accent}`,
  background: vars.color.surface,
  color: vars.color.text,
});

/** The voice's name as the way to its preview (a photo's is its picture): a tap target of its own. */
export const previewLink = style({
  display: "inline-flex",
  alignItems: "center",
  minHeight: vars.layout.tapTarget,
  color: vars.color.accent,
  fontWeight: 600,
});
