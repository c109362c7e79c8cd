// One name for each of the two visitor actions wherever the spec leaves the
// words to us (docs/decisions/027-action-names.md): the guest book is "Sign
// the Guest Book", the share page "Share Photos & Videos". The spec's fixed
// labels ("Share a Memory" to the guest book, "Share Memories" to the share
// page, …) stay where the spec puts them, and nowhere else.
import { describe, expect, it } from "vitest";
import common from "~/i18n/catalogs/common/en.json";
import { footerLinks, headerLinks, type NavItem } from "~/utils/navigation";
import { QR_CODES } from "~/utils/qr-codes";

/** A link's English words (its label names them in the common catalog). */
const words = (link: NavItem | undefined) => (link ? common.nav[link.label as keyof typeof common.nav] : undefined);

const SPEC_LABELS = /share a memory|share memories|share your memory|upload photos|upload media/i;

describe("the words that lead to the guest book and the share page", () => {
  it("the printed cards' calls name the page they open as every other link does", () => {
    expect(QR_CODES.guestbook.words).toBe("Scan to sign the guest book");
    expect(QR_CODES.share.words).toBe("Scan to share photos & videos");
    for (const { words } of Object.values(QR_CODES)) expect(words).not.toMatch(SPEC_LABELS);
  });

  it("the footer's link to the share page says what it opens; the header keeps the spec's label", () => {
    expect(words(footerLinks.find((link) => link.to === "/share"))).toBe("Share Photos & Videos");
    expect(words(headerLinks.find((link) => link.to === "/share"))).toBe("Share Memories");
    expect(footerLinks.filter((link) => SPEC_LABELS.test(words(link)!))).toEqual([]);
  });
});
