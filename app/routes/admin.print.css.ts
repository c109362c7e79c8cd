import { globalStyle, style } from "@vanilla-extract/css";
import { panel } from "~/components/admin/admin.css";
import { card as cardBase, container, main } from "~/styles/ui.css";
import { vars } from "~/styles/theme.css";
import { flexGapFallback } from "~/styles/fallbacks";

// The admin's Print page: on screen, the choice of cards and the sheet as a
// preview; on paper, the sheet alone. One sheet of four cards fits both A4
// (210 × 297 mm) and US Letter (216 × 279 mm) inside 10 mm margins: the
// printable area both share is 190 × 259 mm, and the sheet is 188 × 256 mm.

const PRINT = "print";
const SCREEN = "screen";

export const intro = style({ maxWidth: vars.layout.narrow });

export const controls = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
  margin: `${vars.space.md} 0`,
});
flexGapFallback(controls, vars.space.md, "wrap");

/** Shown once the page's scripts run (html[data-hydrated]); without them, printHint says how to print. */
export const printButton = style({ display: "none" });
globalStyle(`html[data-hydrated="true"] ${printButton}`, { display: "inline-flex" });

export const printHint = style({ margin: 0, fontWeight: 600 });
globalStyle(`html[data-hydrated="true"] ${printHint}`, { display: "none" });

/** A phone or tablet has no keys to press: its hint names the browser's menu instead (a browser that knows neither media feature shows the keys). */
const TOUCH_ONLY = "(hover: none) and (pointer: coarse)";
export const keysHint = style({ "@media": { [TOUCH_ONLY]: { display: "none" } } });
export const touchHint = style({ display: "none", "@media": { [TOUCH_ONLY]: { display: "inline" } } });

export const downloads = style({ display: "grid", gap: vars.space.sm, padding: 0, listStyle: "none" });

export const sheet = style({
  display: "grid",
  "@media": {
    [SCREEN]: {
      gridTemplateColumns: ["minmax(0, 1fr)", "repeat(auto-fit, minmax(min(100%, 20rem), 1fr))"],
      gap: vars.space.md,
      maxWidth: "52rem",
      margin: `${vars.space.lg} 0`,
    },
    [PRINT]: {
      gridTemplateColumns: "94mm 94mm",
      gridTemplateRows: "128mm 128mm",
      width: "188mm",
      height: "256mm",
      margin: "0 auto",
      breakInside: "avoid",
    },
  },
});

export const card = style([
  cardBase,
  {
    display: "flex",
    flexDirection: "column",
    alignItems: "center",
    justifyContent: "center",
    textAlign: "center",
    lineHeight: 1.3,
    "@media": {
      [PRINT]: {
        // The dashed lines are where to cut.
        border: `0.3mm dashed ${vars.color.controlBorder}`,
        borderRadius: 0,
        boxShadow: "none",
        padding: "6mm",
        overflow: "hidden",
        breakInside: "avoid",
      },
    },
  },
]);

const line = { margin: 0 } as const;

export const kicker = style({
  ...line,
  fontFamily: vars.font.heading,
  color: vars.color.textMuted,
  fontSize: vars.size.base,
  "@media": { [PRINT]: { fontSize: "12pt" } },
});

export const name = style({
  ...line,
  fontFamily: vars.font.heading,
  color: vars.color.heading,
  fontSize: vars.size.h3,
  fontWeight: 700,
  "@media": { [PRINT]: { fontSize: "20pt" } },
});

export const date = style({
  ...line,
  fontSize: vars.size.base,
  "@media": { [PRINT]: { fontSize: "11pt" } },
});

export const qr = style({
  display: "block",
  width: ["14rem", "min(14rem, 70%)"],
  height: "auto",
  // The code is square: where aspect-ratio is not supported the image's own shape is the same.
  "@supports": { "(aspect-ratio: 1 / 1)": { aspectRatio: "1" } },
  margin: `${vars.space.md} 0 ${vars.space.sm}`,
  "@media": { [PRINT]: { width: "58mm", height: "58mm", margin: "4mm 0 2mm" } },
});

export const words = style({
  ...line,
  fontFamily: vars.font.heading,
  color: vars.color.heading,
  fontSize: vars.size.h3,
  fontWeight: 700,
  "@media": { [PRINT]: { fontSize: "19pt" } },
});

export const address = style({
  ...line,
  marginTop: vars.space.xs,
  color: vars.color.textMuted,
  fontSize: vars.size.small,
  wordBreak: "break-word",
  overflowWrap: "anywhere",
  "@media": { [PRINT]: { fontSize: "10pt" } },
});

// On paper only the sheet: everything else on the page (the site's header and
// footer, the admin panel's tabs, the choices above) is left out, and what
// holds the sheet (body > main > the admin panel > its tab) loses its padding,
// borders and shadows. The stylesheet is one bundle for every page of the
// site, and browsers before :has() (Safari 15.4, Chrome 105) cannot tell this
// page by its sheet: these rules are the page's own <style> (admin.print.tsx),
// so they are there only while it is shown.
const holders = ["body", `body > .${main}`, `body > .${main} > .${container}`, `body > .${main} > .${container} > .${panel}`];
const kept = [main, container, panel, sheet];
export const paperOnly =
  `@media print{${holders.map((holder, level) => `${holder} > :not(.${kept[level]})`).join(",")}{display:none}` +
  `${holders.join(",")}{margin:0;padding:0;border:0;box-shadow:none;background:none;min-height:0;max-width:none;width:auto}}`;

/**
 * The paper's own margins, for this page only: a named page, so the site's
 * other pages print as the browser likes. No size: the printer's paper (A4
 * or Letter) decides, and the sheet fits either.
 */
globalStyle("@page memorial-cards", { margin: "10mm", size: "portrait" } as never);
globalStyle(sheet, { "@media": { [PRINT]: { page: "memorial-cards" } } } as never);

/** With several languages, each language's sheet under its name on screen; on paper each sheet is a page of its own. */
export const sheetTitle = style({ marginBottom: 0 });
globalStyle(`${sheet} ~ ${sheet}`, { "@media": { [PRINT]: { breakBefore: "page", pageBreakBefore: "always" } } } as never);
