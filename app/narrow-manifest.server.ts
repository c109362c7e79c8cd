import type { EntryContext } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

// The render's route tree from the routes this page can use
// (docs/decisions/018-remembered-route-matching.md).
//
// <RemixServer> builds React Router's whole tree from the manifest on every
// render (44 routes here: a tenth of an uncached page's CPU), yet a page only
// ever uses the routes it matched and, with lazy route discovery, hands the
// browser just those plus the matches of its parent addresses. Giving the
// render a manifest holding exactly that set renders the same document.

type Manifest = EntryContext["manifest"];
type ManifestRoute = Manifest["routes"][string];
type TreeRoute = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: TreeRoute[] };

/** Narrowed manifests kept per whole manifest and set of routes (a page's set depends only on its address's shape). */
const MANIFESTS_PER_BUILD = 200;

const trees = new WeakMap<Manifest, TreeRoute[]>();
const narrowedByManifest = new WeakMap<Manifest, Map<string, Manifest>>();

function treeOf(manifest: Manifest): TreeRoute[] {
  let tree = trees.get(manifest);
  if (!tree) {
    const byParent = new Map<string | undefined, ManifestRoute[]>();
    for (const route of Object.values(manifest.routes)) {
      const siblings = byParent.get(route.parentId) ?? [];
      siblings.push(route);
      byParent.set(route.parentId, siblings);
    }
    const build = (parentId: string | undefined): TreeRoute[] =>
      (byParent.get(parentId) ?? []).map((route) => ({
        id: route.id,
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        children: build(route.id),
      }));
    tree = build(undefined);
    trees.set(manifest, tree);
  }
  return tree;
}

/**
 * The routes the browser's first manifest holds for this page, as Remix's
 * lazy route discovery chooses them: the page's matches, and the matches of
 * each parent address ("/", "/a" for "/a/b").
 */
export function pageRouteIds(manifest: Manifest, matchedIds: string[], pathname: string, basename = "/"): string[] {
  const ids = new Set(matchedIds);
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const parents = ["/"];
  while (segments.length > 0) {
    parents.push(`/${segments.join("/")}`);
    segments.pop();
  }
  // A plain tree of ids and paths: all that matching reads.
  const tree = treeOf(manifest) as unknown as Parameters<typeof matchRoutes>[0];
  for (const parent of parents) {
    for (const match of matchRoutes(tree, parent, basename) ?? []) ids.add((match.route as unknown as TreeRoute).id);
  }
  return [...ids];
}

/** `context` with a manifest holding only the routes this page can use. */
export function narrowEntryContext(context: EntryContext, pathname: string): EntryContext {
  const whole = context.manifest;
  const ids = pageRouteIds(
    whole,
    context.staticHandlerContext.matches.map((match) => match.route.id),
    pathname,
    context.staticHandlerContext.basename,
  );
  let narrowed = narrowedByManifest.get(whole);
  if (!narrowed) {
    narrowed = new Map();
    narrowedByManifest.set(whole, narrowed);
  }
  const key = ids.join("\u0000");
  let manifest = narrowed.get(key);
  if (!manifest) {
    const routes: Manifest["routes"] = {};
    for (const id of ids) {
      const route = whole.routes[id];
      if (route) routes[id] = route;
    }
    manifest = { ...whole, routes };
    if (narrowed.size >= MANIFESTS_PER_BUILD) narrowed.delete(narrowed.keys().next().value as string);
    narrowed.set(key, manifest);
  }
  // The same context object: Remix reads what the render noted on it.
  context.manifest = manifest;
  return context;
}
