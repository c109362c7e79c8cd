import { type Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

// WCAG 1.4.11: the edges of form controls and the focus ring need 3:1
// against what is behind them, for older eyes. axe checks text contrast only.

interface Finding {
  what: string;
  ratio: number;
}

/** Border contrast of each visible form control, and focus-ring contrast of each focusable element (outside the photo hero). */
async function lowContrast(page: Page): Promise<Finding[]> {
  return page.evaluate(() => {
    const parse = (colour: string) => {
      const [r, g, b, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
      return { r: r ?? 0, g: g ?? 0, b: b ?? 0, a };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const [R, G, B] = [r, g, b].map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
    };
    const ratio = (a: string, b: string) => {
      const [x, y] = [luminance(parse(a)), luminance(parse(b))];
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    };
    /** The first opaque background behind an element (its parent's, for what lies around its edge). */
    const behind = (element: Element | null): string => {
      for (let node = element; node; node = node.parentElement) {
        const colour = getComputedStyle(node).backgroundColor;
        if (parse(colour).a > 0.5) return colour;
      }
      return "rgb(255, 255, 255)";
    };
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && !element.closest("[aria-hidden=true]");
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${(element.textContent ?? "").trim().slice(0, 30)}"`;
    const findings: { what: string; ratio: number }[] = [];
    for (const control of document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, select")) {
      if (!visible(control)) continue;
      const value = ratio(getComputedStyle(control).borderTopColor, behind(control.parentElement));
      if (value < 3) findings.push({ what: `border of ${name(control)}`, ratio: value });
    }
    for (const element of document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), textarea, select")) {
      if (!visible(element) || element.closest("[data-hero]")) continue;
      element.focus();
      if (document.activeElement !== element) continue;
      const style = getComputedStyle(element);
      if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) === 0) {
        findings.push({ what: `no focus ring on ${name(element)}`, ratio: 0 });
        continue;
      }
      const value = ratio(style.outlineColor, behind(element.parentElement));
      if (value < 3) findings.push({ what: `focus ring of ${name(element)}`, ratio: value });
    }
    (document.activeElement as HTMLElement | null)?.blur();
    return findings.map((f) => ({ what: f.what, ratio: Math.round(f.ratio * 100) / 100 }));
  });
}

for (const url of ["/", "/guestbook", "/share", "/rsvp", "/gallery", "/poems", "/admin"]) {
  test(`form controls and focus rings on ${url} stand out at 3:1`, async ({ page }) => {
    await page.goto(url);
    // Keyboard use: focus rings show for focus that does not come from a click.
    await page.keyboard.press("Tab");
    expect(await lowContrast(page)).toEqual([]);
  });
}
