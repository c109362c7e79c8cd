// The render's manifest holds the routes lazy route discovery would send for
// the page (app/narrow-manifest.server.ts): its matches and those of its
// parent addresses, found the way Remix finds them, basename included.
import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { pageRouteIds } from "~/narrow-manifest.server";

type Manifest = EntryContext["manifest"];

function manifestOf(routes: { id: string; parentId?: string; path?: string; index?: boolean }[]): Manifest {
  const byId: Record<string, unknown> = {};
  for (const route of routes) byId[route.id] = { ...route, module: `/build/${route.id}.js`, hasLoader: true };
  return {
    routes: byId,
    entry: { module: "/build/entry.js", imports: [] },
    url: "/build/manifest.js",
    version: "1",
  } as unknown as Manifest;
}

const manifest = manifestOf([
  { id: "root", path: "" },
  { id: "routes/_index", parentId: "root", index: true },
  { id: "routes/guestbook", parentId: "root", path: "guestbook" },
  { id: "routes/admin", parentId: "root", path: "admin" },
  { id: "routes/admin._index", parentId: "routes/admin", index: true },
  { id: "routes/admin.uploads", parentId: "routes/admin", path: "uploads" },
  { id: "routes/$", parentId: "root", path: "*" },
]);
const page = ["root", "routes/admin", "routes/admin.uploads"];

describe("a page's routes for the render", () => {
  it("are the page's matches and its parent addresses' matches", () => {
    expect(pageRouteIds(manifest, page, "/admin/uploads").sort()).toEqual(
      ["root", "routes/_index", "routes/admin", "routes/admin._index", "routes/admin.uploads"].sort(),
    );
  });

  it("are the same under a basename", () => {
    expect(pageRouteIds(manifest, page, "/memorial/admin/uploads", "/memorial").sort()).toEqual(
      pageRouteIds(manifest, page, "/admin/uploads").sort(),
    );
  });
});
