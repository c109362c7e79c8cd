import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/utils/safe-redirect";

describe("safeRedirect", () => {
  it.each([
    "/.//evil.example/phish",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/a/../..//evil.example",
    "//evil",
    "///evil",
    "/\\evil",
    "/\\/evil",
    "https://evil",
    "http:/evil",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/\n/evil.example",
    "/poems\r\nSet-Cookie: x=1",
    " //evil.example",
    "poems",
    "",
  ])("does not follow %j off the site", (target) => {
    expect(safeRedirect(target, "/fallback")).toBe("/fallback");
  });

  it("answers the fallback for anything that is not text", () => {
    for (const value of [null, undefined, 42, {}, ["/poems"]]) expect(safeRedirect(value, "/admin")).toBe("/admin");
    expect(safeRedirect(null)).toBe("/");
  });

  it("keeps a path on the site with its query and fragment", () => {
    expect(safeRedirect("/poems")).toBe("/poems");
    expect(safeRedirect("/gallery?type=VIDEO&offset=20#tile-3")).toBe("/gallery?type=VIDEO&offset=20#tile-3");
    expect(safeRedirect("/admin/uploads/12?x=1")).toBe("/admin/uploads/12?x=1");
    expect(safeRedirect("/")).toBe("/");
  });

  it("gives the path as the URL parser resolves it, encoded", () => {
    expect(safeRedirect("/a/./b/../poems")).toBe("/a/poems");
    expect(safeRedirect("/../poems")).toBe("/poems");
    expect(safeRedirect("/😀?q=é")).toBe("/%F0%9F%98%80?q=%C3%A9");
    expect(safeRedirect("/a b?c d#e f")).toBe("/a%20b?c%20d#e%20f");
    // Encoded slashes stay encoded: a browser reads them as part of one path segment.
    expect(safeRedirect("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });
});
