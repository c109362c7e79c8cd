// Remembered route matching (server/route-matching.mjs) gives React Router's
// own answers: the same routes, params and pathnames, for the tree it is given.
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  LONGEST_REMEMBERED_ADDRESS,
  narrowDataHandlers,
  REMEMBERED_ADDRESSES,
  REMEMBERED_SHAPES,
  rememberingMatchRoutes,
  rememberRouteMatching,
} from "../../server/route-matching.mjs";

const router = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");
const original = router.matchRoutes as unknown as Parameters<typeof rememberingMatchRoutes>[0];

interface TestRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: TestRoute[];
}

/** A tree shaped like the site's: Remix's root, index, static and dynamic routes, a layout, a splat, an optional segment. */
function siteLikeTree(): TestRoute[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/_index", index: true },
        { id: "routes/guestbook", path: "guestbook" },
        { id: "routes/gallery", path: "gallery" },
        { id: "routes/gallery_.$id", path: "gallery/:id" },
        { id: "routes/poems", path: "poems" },
        { id: "routes/Karen", path: "Karen", caseSensitive: true },
        { id: "routes/($lang).about", path: ":lang?/about" },
        {
          id: "routes/admin",
          path: "admin",
          children: [
            { id: "routes/admin._index", index: true },
            { id: "routes/admin.memories.$id", path: "memories/:id" },
            { id: "routes/admin.uploads", path: "uploads" },
          ],
        },
        { id: "routes/admin_.login", path: "admin/login" },
        { id: "routes/api.guestbook", path: "api/guestbook" },
        { id: "routes/api.uploads.objects.$", path: "api/uploads/objects/*" },
        { id: "routes/api.$", path: "api/*" },
        { id: "routes/media.$id.$file", path: "media/:id/:file" },
        { id: "routes/$", path: "*" },
      ],
    },
  ];
}

const ADDRESSES = [
  "/",
  "/guestbook",
  "/guestbook/",
  "/GUESTBOOK",
  "/gallery/12",
  "/gallery/caf%C3%A9",
  "/poems",
  "/Karen",
  "/karen",
  "/about",
  "/fr/about",
  "/admin",
  "/admin/memories/7",
  "/admin/uploads",
  "/admin/login",
  "/api/guestbook",
  "/api/uploads/objects/a/b/c.jpg",
  "/api/nothing/here",
  "/media/3/display-3.jpg",
  "/no/such/page",
  "/%E0%A4%A",
];

describe("remembered route matching", () => {
  it("answers as React Router does, first and from memory, for the same tree and for a new tree of the same shape", () => {
    const matchRoutes = rememberingMatchRoutes(original);
    const tree = siteLikeTree();
    for (const round of [1, 2, 3]) {
      // The render builds a new tree on every request.
      const routes = round === 3 ? siteLikeTree() : tree;
      for (const address of ADDRESSES) {
        for (const location of [address, { pathname: address }, `${address}?q=1#top`]) {
          const expected = original(routes, location);
          const answer = matchRoutes(routes, location);
          expect(answer, `${address} (round ${round})`).toEqual(expected);
          if (!answer || !expected) continue;
          answer.forEach((match, i) => expect(match.route).toBe(expected[i]!.route));
          // One params object for the whole answer, as React Router gives.
          expect(new Set(answer.map((match) => match.params)).size).toBe(1);
        }
      }
    }
  });

  it("gives each caller its own params, so one request cannot change another's", () => {
    const matchRoutes = rememberingMatchRoutes(original);
    const routes = siteLikeTree();
    const first = matchRoutes(routes, "/gallery/12")!;
    first[0]!.params.id = "99";
    expect(matchRoutes(routes, "/gallery/12")![1]!.params).toEqual({ id: "12" });
  });

  it("honours the basename", () => {
    const matchRoutes = rememberingMatchRoutes(original);
    const routes = siteLikeTree();
    for (const basename of ["/", "/memorial", "/memorial", "/"]) {
      for (const address of ["/memorial/guestbook", "/guestbook"]) {
        expect(matchRoutes(routes, address, basename)).toEqual(original(routes, address, basename));
      }
    }
  });

  it("keeps answering correctly past the number of addresses it remembers, and for very long addresses", () => {
    const matchRoutes = rememberingMatchRoutes(original);
    const routes = siteLikeTree();
    for (let i = 0; i < REMEMBERED_ADDRESSES + 50; i++) {
      expect(matchRoutes(routes, `/gallery/${i}`)?.[1]?.params).toEqual({ id: String(i) });
    }
    const long = `/gallery/${"x".repeat(LONGEST_REMEMBERED_ADDRESS)}`;
    expect(matchRoutes(routes, long)).toEqual(original(routes, long));
    expect(matchRoutes(routes, "/gallery/0")).toEqual(original(routes, "/gallery/0"));
  });

  it("tells trees of different shapes apart", () => {
    const matchRoutes = rememberingMatchRoutes(original);
    const before = siteLikeTree();
    expect((matchRoutes(before, "/poems")?.at(-1)?.route as TestRoute | undefined)?.id).toBe("routes/poems");
    const after = siteLikeTree();
    after[0]!.children = after[0]!.children!.filter((route) => route.id !== "routes/poems");
    expect((matchRoutes(after, "/poems")?.at(-1)?.route as TestRoute | undefined)?.id).toBe("routes/$");
  });

  it("keeps a busy tree's answers while many other shapes come and go, and forgets the idlest shape first", () => {
    const counted = vi.fn(original);
    const matchRoutes = rememberingMatchRoutes(counted);
    const busy = siteLikeTree();
    /** A tree of its own shape: one more static page. */
    const other = (n: number) => {
      const routes = siteLikeTree();
      routes[0]!.children!.push({ id: `routes/page-${n}`, path: `page-${n}` });
      return routes;
    };
    for (let n = 0; n < REMEMBERED_SHAPES * 3; n++) {
      expect(matchRoutes(busy, "/guestbook")?.at(-1)?.route).toBe(busy[0]!.children![1]);
      expect((matchRoutes(other(n), `/page-${n}`)?.at(-1)?.route as TestRoute | undefined)?.id).toBe(`routes/page-${n}`);
    }
    // React Router matched the busy tree's address once; each other shape, once.
    expect(counted.mock.calls.filter(([routes]) => routes === busy)).toHaveLength(1);
    expect(counted).toHaveBeenCalledTimes(1 + REMEMBERED_SHAPES * 3);
    // The idlest shapes were forgotten (and are answered correctly again), the most recent kept.
    counted.mockClear();
    matchRoutes(other(0), "/page-0");
    matchRoutes(other(REMEMBERED_SHAPES * 3 - 1), `/page-${REMEMBERED_SHAPES * 3 - 1}`);
    expect(counted).toHaveBeenCalledTimes(1);
    expect(matchRoutes.original).toBe(counted);
  });

  it("is installed on @remix-run/router, through which Remix's server runtime matches, once", () => {
    let calls = 0;
    const counting = ((...args: Parameters<typeof original>) => {
      calls++;
      return original(...args);
    }) as never;
    router.matchRoutes = counting;
    try {
      rememberRouteMatching(router as never);
      rememberRouteMatching(router as never);
      expect((router.matchRoutes as { remembering?: boolean }).remembering).toBe(true);
      const runtime = createRequire(import.meta.url)("@remix-run/server-runtime/dist/routeMatching.js") as {
        matchServerRoutes: (routes: unknown[], pathname: string) => { route: { id: string } }[] | null;
      };
      const routes = siteLikeTree();
      for (let i = 0; i < 3; i++) {
        expect(runtime.matchServerRoutes(routes, "/guestbook")?.map((match) => match.route.id)).toEqual(["root", "routes/guestbook"]);
      }
      // React Router's own matching ran once; the other two answers came from memory.
      expect(calls).toBe(1);
    } finally {
      router.matchRoutes = original as never;
    }
  });
});

describe("data handlers narrowed to the matched branch", () => {
  afterEach(() => vi.restoreAllMocks());

  /** The site-like tree as a data handler's routes: every route loads its own id, "admin" has an error boundary. */
  function dataTree(routes: TestRoute[] = siteLikeTree()): object[] {
    return routes.map(({ children, ...route }) => ({
      ...route,
      hasErrorBoundary: route.id === "root" || route.id === "routes/admin",
      loader: ({ params }: { params: object }) => ({ id: route.id, params }),
      ...(route.id === "routes/admin.uploads" ? { action: () => ({ acted: route.id }) } : {}),
      ...(children ? { children: dataTree(children) } : {}),
    }));
  }

  type Handler = {
    query: (request: Request) => Promise<unknown>;
    queryRoute: (request: Request, options: { routeId?: string }) => Promise<unknown>;
  };
  const create = router.createStaticHandler as unknown as (routes: object[]) => Handler;

  /** What a context or response says, without the route objects themselves. */
  async function outcome(result: Promise<unknown>) {
    try {
      const value = (await result) as Record<string, unknown>;
      if (value instanceof Response) return { response: value.status, body: await value.text() };
      const matches = value.matches as { route: { id: string }; params: object; pathname: string }[] | undefined;
      return JSON.parse(
        JSON.stringify({
          ...value,
          matches: matches?.map((match) => [match.route.id, match.params, match.pathname]),
        }),
      ) as unknown;
    } catch (thrown) {
      return { thrown: thrown instanceof Response ? thrown.status : String(thrown) };
    }
  }

  it("checks each new branch with React Router's own matching, leaving the remembered shapes to the trees used on every request", async () => {
    const remembering = rememberingMatchRoutes(original);
    const counted = vi.fn(remembering);
    const module = { matchRoutes: Object.assign(counted, { original: remembering.original }), createStaticHandler: create };
    narrowDataHandlers(module as never);
    const routes = dataTree();
    const narrowed = (module.createStaticHandler as unknown as typeof create)(routes);
    for (const address of ["/guestbook", "/admin/uploads", "/gallery/3", "/guestbook"])
      await narrowed.query(new Request(`http://localhost${address}`));
    // Only the whole tree went through the remembering matcher (once per request; the branch handlers match inside React Router).
    expect(counted.mock.calls.map(([tree]) => tree === routes)).toEqual([true, true, true, true]);
  });

  it("answers every address, method and route id as the whole tree's handler does", async () => {
    // React Router warns about the undecodable address on each of its own matches.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const module = { matchRoutes: rememberingMatchRoutes(original), createStaticHandler: create };
    narrowDataHandlers(module as never);
    const narrowed = (module.createStaticHandler as unknown as typeof create)(dataTree());
    const whole = create(dataTree());
    const post = (url: string) =>
      new Request(url, { method: "POST", body: "x=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    for (const address of [...ADDRESSES, "/admin?index", "/?index", "/admin/uploads?x=1"]) {
      const url = `http://localhost${address}`;
      for (let round = 0; round < 2; round++) {
        expect(await outcome(narrowed.query(new Request(url))), address).toEqual(await outcome(whole.query(new Request(url))));
        expect(await outcome(narrowed.query(post(url))), `POST ${address}`).toEqual(await outcome(whole.query(post(url))));
        for (const routeId of [undefined, "root", "routes/admin", "routes/guestbook", "routes/admin.uploads"]) {
          expect(await outcome(narrowed.queryRoute(new Request(url), { routeId })), `${address} ${routeId}`).toEqual(
            await outcome(whole.queryRoute(new Request(url), { routeId })),
          );
        }
      }
    }
  });
});
