// @ts-check
// Remembered route matching (docs/decisions/018-remembered-route-matching.md).
//
// React Router's `matchRoutes` flattens and ranks the whole route tree and
// compiles every path pattern again on each call, and a page request calls it
// three times: Remix to find the route, its data handler, and React Router
// during the render. With the site's 44 routes that was about 1.3 ms of CPU
// per page. The answer depends only on the tree's shape (each route's path,
// index flag, case sensitivity and children) and the address, so this wrapper
// remembers, per shape, which routes (by their place in the tree) matched an
// address with which params, and hands back fresh match objects pointing at
// the routes of the tree it was given (the render builds a new tree of the
// same shape on every request).
//
// `rememberRouteMatching` replaces `matchRoutes` on @remix-run/router's
// module object, which Remix's server runtime and React Router call it
// through. (The data handler calls it from inside that module, so one of the
// three calls still does the full work.)

/**
 * @typedef {{ path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteLike[] }} RouteLike
 * @typedef {{ params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: RouteLike }} Match
 * @typedef {(routes: RouteLike[], location: string | { pathname?: string }, basename?: string) => Match[] | null} MatchRoutes
 * @typedef {{ places: number[][]; params: Record<string, string | undefined>; pathnames: string[]; pathnameBases: string[] } | null} Remembered
 */

/** Addresses remembered per tree shape; the oldest is forgotten first. */
export const REMEMBERED_ADDRESSES = 1000;
/**
 * Tree shapes remembered; the one least recently used is forgotten first. The
 * server's whole tree is one shape and each kind of page renders a narrowed
 * tree of its own (app/narrow-manifest.server.ts), so a busy site uses a few
 * dozen; forgetting only the idlest keeps the busy ones under mixed traffic.
 */
export const REMEMBERED_SHAPES = 64;
/** Longer addresses (hardly ever a real page) are matched afresh each time rather than held in memory. */
export const LONGEST_REMEMBERED_ADDRESS = 300;

/** @type {WeakMap<RouteLike[], string>} */
const shapes = new WeakMap();

/**
 * The parts of a tree `matchRoutes` looks at, as one string (each path
 * length-prefixed, so two different trees never read the same). Built again
 * for each new tree: the render makes one per request.
 * @param {RouteLike[]} routes
 * @returns {string}
 */
function shapeOf(routes) {
  let shape = shapes.get(routes);
  if (shape === undefined) {
    shape = describe(routes);
    shapes.set(routes, shape);
  }
  return shape;
}

/**
 * @param {RouteLike[]} routes
 * @returns {string}
 */
function describe(routes) {
  let text = "[";
  for (const route of routes) {
    const path = route.path;
    text += path === undefined ? "-" : `${path.length}:${path}`;
    text += route.index === true ? "i" : "";
    text += route.caseSensitive === true ? "c" : "";
    text += route.children ? describe(route.children) : ".";
  }
  return `${text}]`;
}

/**
 * Where `target` is in the tree, as child indexes from the top.
 * @param {RouteLike[]} routes @param {RouteLike} target @returns {number[] | null}
 */
function placeOf(routes, target) {
  for (let i = 0; i < routes.length; i++) {
    const route = /** @type {RouteLike} */ (routes[i]);
    if (route === target) return [i];
    if (route.children) {
      const below = placeOf(route.children, target);
      if (below) return [i, ...below];
    }
  }
  return null;
}

/**
 * @param {RouteLike[]} routes @param {number[]} place @returns {RouteLike}
 */
function routeAt(routes, place) {
  let level = routes;
  let route = /** @type {RouteLike | undefined} */ (undefined);
  for (const i of place) {
    route = level[i];
    if (!route) throw new Error("route-matching: the tree changed shape");
    level = route.children ?? [];
  }
  return /** @type {RouteLike} */ (route);
}

/**
 * A `matchRoutes` that gives the same answers as `original`, remembering them per tree shape and address.
 * @param {MatchRoutes} original
 * @returns {MatchRoutes & { original: MatchRoutes }}
 */
export function rememberingMatchRoutes(original) {
  /** Least recently used first. @type {Map<string, Map<string, Remembered>>} */
  const byShape = new Map();
  let lastShape = "";
  const matchRoutes = function matchRoutes(
    /** @type {RouteLike[]} */ routes,
    /** @type {string | { pathname?: string }} */ location,
    basename = "/",
  ) {
    const address = typeof location === "string" ? `s${location}` : `p${location?.pathname || "/"}`;
    if (!Array.isArray(routes) || address.length > LONGEST_REMEMBERED_ADDRESS) return original(routes, location, basename);
    const shape = shapeOf(routes);
    let remembered = byShape.get(shape);
    if (!remembered) {
      if (byShape.size >= REMEMBERED_SHAPES) byShape.delete(/** @type {string} */ (byShape.keys().next().value));
      remembered = new Map();
      byShape.set(shape, remembered);
    } else if (shape !== lastShape) {
      // Now the most recently used (skipped when it already is: a page's calls mostly come in runs of one shape).
      byShape.delete(shape);
      byShape.set(shape, remembered);
    }
    lastShape = shape;
    const key = `${basename}\u0000${address}`;
    let answer = remembered.get(key);
    if (answer === undefined) {
      const matches = original(routes, location, basename);
      const places = matches?.map((match) => placeOf(routes, match.route));
      // Not a tree this wrapper understands (a match outside it): answer as React Router did, and keep nothing.
      if (matches && (!places || places.some((place) => place === null))) return matches;
      answer = matches
        ? {
            places: /** @type {number[][]} */ (places),
            params: { ...matches[matches.length - 1]?.params },
            pathnames: matches.map((match) => match.pathname),
            pathnameBases: matches.map((match) => match.pathnameBase),
          }
        : null;
      if (remembered.size >= REMEMBERED_ADDRESSES) remembered.delete(/** @type {string} */ (remembered.keys().next().value));
      remembered.set(key, answer);
      return matches;
    }
    if (answer === null) return null;
    // Like React Router: one params object shared by every match of the answer.
    const params = { ...answer.params };
    const found = answer;
    return found.places.map((place, i) => ({
      params,
      pathname: /** @type {string} */ (found.pathnames[i]),
      pathnameBase: /** @type {string} */ (found.pathnameBases[i]),
      route: routeAt(routes, place),
    }));
  };
  return Object.assign(matchRoutes, { original });
}

/**
 * Installs the remembering `matchRoutes` on @remix-run/router's module object (once).
 * @param {{ matchRoutes: MatchRoutes }} router the module, as `require("@remix-run/router")` gives it
 */
export function rememberRouteMatching(router) {
  const marked = /** @type {MatchRoutes & { remembering?: true }} */ (router.matchRoutes);
  if (marked.remembering) return;
  const remembering = /** @type {MatchRoutes & { remembering?: true }} */ (rememberingMatchRoutes(router.matchRoutes));
  remembering.remembering = true;
  router.matchRoutes = remembering;
  // A later React Router whose module object cannot be changed must not leave the wrapper silently unused.
  if (router.matchRoutes !== remembering) throw new Error("route-matching: @remix-run/router's matchRoutes could not be replaced");
}

/**
 * @typedef {RouteLike & { id?: string; children?: DataRoute[] }} DataRoute
 * @typedef {{ query: (request: Request, options?: object) => Promise<unknown>; queryRoute: (request: Request, options?: object) => Promise<unknown>; dataRoutes: DataRoute[] }} StaticHandler
 * @typedef {(routes: DataRoute[], options?: { basename?: string }) => StaticHandler} CreateStaticHandler
 */

/** React Router's own `matchRoutes` behind a remembering one. @param {MatchRoutes & { original?: MatchRoutes }} matchRoutes @returns {MatchRoutes} */
function unremembered(matchRoutes) {
  return matchRoutes.original ?? matchRoutes;
}

/** The matched routes alone, each with only the next one as its child. @param {DataRoute[]} chain @returns {DataRoute[]} */
function branchTree(chain) {
  /** @type {DataRoute[]} */
  let below = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    const { children: _all, ...route } = /** @type {DataRoute} */ (chain[i]);
    below = [i === chain.length - 1 && _all === undefined ? route : { ...route, children: below }];
  }
  return below;
}

/**
 * Installs a `createStaticHandler` whose handlers answer each request with a handler made from its matched branch alone.
 * @param {{ matchRoutes: MatchRoutes; createStaticHandler: CreateStaticHandler }} router
 * @param {{ dataStrategy?: (args: never) => Promise<unknown> }} [options] a data strategy for documents (`query`), e.g. server/loader-json.mjs's
 */
export function narrowDataHandlers(router, { dataStrategy } = {}) {
  const original = router.createStaticHandler;
  router.createStaticHandler = function createStaticHandler(routes, options) {
    const whole = original(routes, options);
    const basename = options?.basename ?? "/";
    /** @type {Map<string, StaticHandler>} */
    const byBranch = new Map();
    /** @param {Request} request @returns {StaticHandler} */
    const handlerFor = (request) => {
      const pathname = new URL(request.url).pathname;
      const matches = router.matchRoutes(routes, { pathname }, basename);
      if (!matches) return whole;
      const chain = /** @type {DataRoute[]} */ (matches.map((match) => match.route));
      const key = chain.map((route) => route.id).join("\u0000");
      let handler = byBranch.get(key);
      if (!handler) {
        const tree = branchTree(chain);
        // A one-off check on a one-off tree: asked of React Router itself, so it takes no place among the remembered shapes.
        const again = unremembered(router.matchRoutes)(tree, { pathname }, basename);
        const same =
          again && again.length === chain.length && again.every((match, i) => /** @type {DataRoute} */ (match.route).id === chain[i]?.id);
        handler = same ? original(tree, options) : whole;
        byBranch.set(key, handler);
      }
      return handler;
    };
    return {
      ...whole,
      query: (request, queryOptions) => handlerFor(request).query(request, dataStrategy ? { dataStrategy, ...queryOptions } : queryOptions),
      queryRoute: (request, queryOptions) => handlerFor(request).queryRoute(request, queryOptions),
    };
  };
}
