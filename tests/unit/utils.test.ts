import type { MetaDescriptor } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { bundledMedia, content } from "~/content";
import { formatBytes } from "~/utils/bytes";
import { pageMeta } from "~/site/meta";
import { formatServiceWhen } from "~/site/service-time.server";
import common from "~/i18n/catalogs/common/en.json";
import { footerLinks, headerLinks, isLinkActive, shownLinks, type NavItem } from "~/utils/navigation";
import { nextCursorFromLink } from "~/components/list-page";
import { itemsToShow } from "~/utils/paging";
import { relativeTime } from "~/utils/relative-time";
import { formatDuration } from "~/utils/time";

/** A link's English words (its label names them in the common catalog). */
const words = (link: NavItem) => common.nav[link.label as keyof typeof common.nav];

describe("relativeTime", () => {
  const now = Date.UTC(2025, 8, 1, 12, 0, 0);

  it.each([null, undefined, ""])("says Recently when there is no creation time (%j)", (value) => {
    expect(relativeTime(value, now)).toBe("Recently");
  });

  it("says Recently for a time it cannot read", () => {
    expect(relativeTime("not a date", now)).toBe("Recently");
  });

  it("says about 2 hours ago for a memory from two hours back", () => {
    expect(relativeTime(now - 2 * 60 * 60 * 1000, now)).toBe("about 2 hours ago");
    expect(relativeTime(new Date(now - 2 * 60 * 60 * 1000).toISOString(), now)).toBe("about 2 hours ago");
    expect(relativeTime(new Date(now - 2 * 60 * 60 * 1000), now)).toBe("about 2 hours ago");
  });

  it("never talks about the future when the clock is slightly ahead", () => {
    expect(relativeTime(now + 90_000, now)).toBe("less than a minute ago");
  });

  it("says days for older items", () => {
    expect(relativeTime(now - 3 * 24 * 60 * 60 * 1000, now)).toBe("3 days ago");
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0:00"],
    [5, "0:05"],
    [75, "1:15"],
    [600, "10:00"],
    [3599, "59:59"],
    [null, "0:00"],
    [undefined, "0:00"],
    [-4, "0:00"],
  ] as const)("shows %j seconds as %s", (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe("isLinkActive", () => {
  it("highlights Home and Service Details only on the home page", () => {
    expect(isLinkActive("/", "/")).toBe(true);
    expect(isLinkActive("/#service", "/")).toBe(true);
    expect(isLinkActive("/", "/poems")).toBe(false);
    expect(isLinkActive("/#service", "/poems")).toBe(false);
    expect(isLinkActive("/#service", "/guestbook")).toBe(false);
  });

  it("highlights Poems on the poems page and pages below it", () => {
    expect(isLinkActive("/poems", "/poems")).toBe(true);
    expect(isLinkActive("/poems", "/poems/x")).toBe(true);
  });

  it("does not highlight Poems on a page whose name only starts the same", () => {
    expect(isLinkActive("/poems", "/poemsx")).toBe(false);
    expect(isLinkActive("/poems", "/")).toBe(false);
  });

  it("keeps the spec's header and footer links, the footer adding Poems and the share page", () => {
    expect(shownLinks(headerLinks, false).map((l) => [words(l), l.to])).toEqual([
      ["Home", "/"],
      ["Service Details", "/#service"],
      ["Guest Book", "/guestbook"],
      ["Share Memories", "/share"],
      ["Gallery", "/gallery"],
      ["Poems", "/poems"],
    ]);
    expect(shownLinks(footerLinks, false).map((l) => [words(l), l.to])).toEqual([
      ["Home", "/"],
      ["Service", "/#service"],
      ["Guest Book", "/guestbook"],
      ["Gallery", "/gallery"],
      ["Poems", "/poems"],
      ["Share Photos & Videos", "/share"],
      ["Admin", "/admin"],
    ]);
  });

  it("adds the life story after the service once the family publishes it", () => {
    expect(shownLinks(headerLinks, true).map(words)).toEqual([
      "Home",
      "Service Details",
      "Life Story",
      "Guest Book",
      "Share Memories",
      "Gallery",
      "Poems",
    ]);
    expect(
      shownLinks(footerLinks, true)
        .map((l) => l.to)
        .slice(0, 3),
    ).toEqual(["/", "/#service", "/life"]);
  });
});

describe("pageMeta", () => {
  const matches = [{ id: "root", data: { origin: "https://memorial.example" } }];

  function titleOf(tags: MetaDescriptor[]): string | undefined {
    for (const tag of tags) if ("title" in tag) return String(tag.title);
    return undefined;
  }

  function property(tags: MetaDescriptor[], name: string): string | undefined {
    for (const tag of tags) {
      const t = tag as Record<string, unknown>;
      if (t.property === name || t.name === name) return String(t.content);
    }
    return undefined;
  }

  it("puts the page title and the site title in the document title and preview", () => {
    const tags = pageMeta(matches, { title: "Poems & Writings", path: "/poems" });
    const title = titleOf(tags);
    expect(title).toContain("Poems & Writings");
    expect(title).toBe(`Poems & Writings | In Loving Memory of ${content.personName}`);
    expect(property(tags, "og:title")).toBe(title);
    expect(property(tags, "og:image")).toBe(`https://memorial.example${bundledMedia.heroImage}`);
    expect(property(tags, "og:url")).toBe("https://memorial.example/poems");
  });

  it("uses exactly the given title when exactTitle is set", () => {
    const tags = pageMeta(matches, { title: "404 Page Not Found", exactTitle: true });
    expect(titleOf(tags)).toBe("404 Page Not Found");
    expect(property(tags, "og:title")).toBe("404 Page Not Found");
  });

  it("falls back to the memorial's name as title and description (the browser is not sent the page texts for it)", () => {
    const tags = pageMeta([]);
    expect(titleOf(tags)).toBe(`In Loving Memory of ${content.personName}`);
    expect(property(tags, "description")).toBe(`In Loving Memory of ${content.personName}`);
    expect(property(tags, "og:image:alt")).toBeUndefined();
    expect(property(tags, "og:image")).toBe(bundledMedia.heroImage);
    expect(property(tags, "og:url")).toBeUndefined();
  });
});

describe("formatBytes", () => {
  it("says sizes as a person reads them, in 1024s", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(1023)).toBe("1023 bytes");
    expect(formatBytes(3 * 1024 + 100)).toBe("3 KB");
    expect(formatBytes(1.5 * 1024 ** 2)).toBe("1.5 MB");
    expect(formatBytes(780 * 1024 ** 2)).toBe("780 MB");
    expect(formatBytes(1_073_741_824)).toBe("1 GB");
    expect(formatBytes(1.23 * 1024 ** 3)).toBe("1.2 GB");
    expect(formatBytes(34 * 1024 ** 3)).toBe("34 GB");
  });
});

describe("paging", () => {
  it.each([
    [null, 10],
    ["", 10],
    ["10", 20],
    ["90", 100],
    ["5000", 100],
    ["1e400", 10],
    ["-5", 10],
    ["abc", 10],
  ])("a page asked for with offset %j shows %i memories", (offset, shown) => {
    expect(itemsToShow(offset, 10)).toBe(shown);
  });

  it("reads the cursor of the next page from a Link header", () => {
    expect(nextCursorFromLink('</api/gallery?limit=20&type=VIDEO&before=MTcwMC41>; rel="next"')).toBe("MTcwMC41");
    expect(nextCursorFromLink(null)).toBeNull();
    expect(nextCursorFromLink('</api/gallery?limit=20>; rel="prev"')).toBeNull();
  });
});

describe("formatServiceWhen", () => {
  it("names the family's time zone as it is on the service's day", () => {
    const site = { timeZone: "America/Chicago", serviceStartsAt: "2026-01-18T16:00", serviceEndsAt: "2026-01-18T20:00" };
    expect(formatServiceWhen(site)).toBe("Sunday, January 18th, 2026 · 4:00 pm to 8:00 pm CST");
    expect(formatServiceWhen({ ...site, serviceStartsAt: "2025-08-31T16:00", serviceEndsAt: "2025-08-31T20:00" })).toBe(
      "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm CDT",
    );
    expect(formatServiceWhen({ timeZone: "Europe/London", serviceStartsAt: "2025-12-31T22:00", serviceEndsAt: "2026-01-01T01:00" })).toBe(
      "Wednesday, December 31st, 2025 · 10:00 pm to Thursday, January 1st, 2026 · 1:00 am GMT",
    );
  });
});
