// Loader data for a document without the trip through a response body
// (server/loader-json.mjs): React Router's own results, without reading a body.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { bodilessDataStrategy, json, loadWithoutCopies } from "../../server/loader-json.mjs";

const load = createRequire(import.meta.url);
const router = load("@remix-run/router") as typeof import("@remix-run/router");
const runtime = createRequire(load.resolve("@remix-run/node"));
const responses = runtime("@remix-run/server-runtime/dist/responses.js");
const data = runtime("@remix-run/server-runtime/dist/data.js");

async function described(response: Response) {
  return { status: response.status, statusText: response.statusText, headers: [...response.headers], body: await response.text() };
}

describe("json()", () => {
  it("writes the response React Router's json() writes", async () => {
    const cases: [unknown, (number | ResponseInit)?][] = [
      [{ a: 1, when: new Date(0), gone: undefined, list: [1, "two", null] }],
      ["text", 201],
      [null, { status: 400, statusText: "Bad", headers: { "Cache-Control": "no-store", "X-One": "1" } }],
      [{ a: 1 }, { headers: new Headers({ "Content-Type": "application/vnd.api+json" }) }],
      [undefined],
    ];
    for (const [value, init] of cases) {
      expect(await described(json(value, init))).toEqual(await described(router.json(value, init)));
    }
  });
});

describe("json() of plain data", () => {
  class Visit {
    constructor(readonly name: string) {}
  }
  const holey: unknown[] = [1];
  holey[2] = 3;
  const bare = Object.assign(Object.create(null) as object, { a: 1 });
  let deep: unknown = "bottom";
  for (let i = 0; i < 70; i++) deep = { deep };
  const values: unknown[] = [
    { memories: [{ id: 1, name: "Anna", ago: "2 hours ago", phone: null, shown: true }], next: "abc" },
    [],
    "words",
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    holey,
    [undefined],
    { gone: undefined },
    { when: new Date(0) },
    { toJSON: () => "mine" },
    new Visit("Ben"),
    bare,
    deep,
  ];

  it("reads in every way as React Router's json() of the same data", async () => {
    for (const value of values) {
      const ours = json(value, { headers: { "X-One": "1" } });
      const theirs = router.json(value, { headers: { "X-One": "1" } });
      expect(await described(ours.clone())).toEqual(await described(theirs.clone()));
      expect(await ours.clone().json()).toStrictEqual(await theirs.clone().json());
      expect(Buffer.from(await ours.clone().arrayBuffer())).toEqual(Buffer.from(await theirs.clone().arrayBuffer()));
      expect(await new Response(ours.body).text()).toBe(await new Response(theirs.body).text());
      expect(ours.bodyUsed).toBe(true);
      expect(() => ours.clone()).toThrow(TypeError);
    }
  });

  it("is handed to a document as the same value a JSON round trip gives, and plain data is the loader's own, frozen", async () => {
    for (const value of values) {
      const handler = router.createStaticHandler([{ id: "root", path: "/", loader: () => json(value) }] as never);
      const context = (await handler.query(new Request("http://localhost/"), {
        dataStrategy: bodilessDataStrategy(router.data) as never,
      })) as { loaderData: Record<string, unknown> };
      expect(context.loaderData.root).toStrictEqual(JSON.parse(JSON.stringify(value)));
      if (value !== null && typeof value === "object" && Object.isFrozen(value)) expect(context.loaderData.root).toBe(value);
    }
    const page = { memories: [{ id: 1, name: "Anna" }] };
    json(page);
    expect(Object.isFrozen(page.memories[0])).toBe(true);
    expect(() => page.memories.push({ id: 2, name: "Ben" })).toThrow(TypeError);
    // Data written at once is left as the loader made it, plain parts too.
    const dated = { memories: [{ id: 1 }], at: new Date(0) };
    json(dated);
    expect(Object.isFrozen(dated.memories) || Object.isFrozen(dated.memories[0]) || Object.isFrozen(dated)).toBe(false);
  });

  it("refuses data JSON cannot write when json() is called, as React Router's does", () => {
    const circular: Record<string, unknown> = { name: "loop" };
    circular.self = circular;
    expect(() => json(circular)).toThrow(TypeError);
    expect(() => json({ big: 1n })).toThrow(TypeError);
    // A status that has no body refuses one at once.
    expect(() => router.json({ made: true }, 204)).toThrow(TypeError);
    expect(() => json({ made: true }, 204)).toThrow(TypeError);
  });
});

describe("a document's loader data", () => {
  /** Each route loads through `load`; "child" can be told to throw. */
  function tree(child: () => unknown) {
    return [
      {
        id: "root",
        path: "/",
        hasErrorBoundary: true,
        loader: () => json({ site: "In Loving Memory", at: new Date(86_400_000), nothing: undefined }, { headers: { "X-Root": "yes" } }),
        children: [{ id: "child", path: "page", hasErrorBoundary: true, loader: child }],
      },
    ];
  }

  const children: Record<string, () => unknown> = {
    "a json() object": () => json({ list: [{ id: 1, ago: "2 hours ago" }], empty: [] }),
    "a json() that says it is text": () => json({ as: "text" }, { headers: { "Content-Type": "text/plain" } }),
    "a json() of another JSON type": () => json({ as: "text too" }, { headers: { "Content-Type": "application/vnd.api+json" } }),
    "a json() with a status and headers": () => json({ made: true }, { status: 201, headers: { "Cache-Control": "private, no-store" } }),
    "a refusal returned": () => json({ errors: { name: ["Name is required"] } }, { status: 400 }),
    "a refusal thrown": () => {
      throw json({ message: "Not Found" }, { status: 404 });
    },
    "a redirect": () => new Response(null, { status: 302, headers: { Location: "/elsewhere" } }),
    text: () => new Response("plain words", { headers: { "Content-Type": "text/plain" } }),
    "an error thrown": () => {
      throw new Error("broken");
    },
    "JSON Remix did not write": () => new Response('{"x":1}', { headers: { "Content-Type": "application/json" } }),
  };

  async function outcome(result: unknown) {
    if (result instanceof Response) return described(result);
    const context = result as { loaderData: unknown; statusCode: number; loaderHeaders: Record<string, Headers>; errors: unknown };
    return JSON.parse(
      JSON.stringify({
        loaderData: context.loaderData,
        statusCode: context.statusCode,
        errors: context.errors,
        loaderHeaders: Object.fromEntries(Object.entries(context.loaderHeaders).map(([id, headers]) => [id, [...headers]])),
      }),
    );
  }

  it("is what React Router reads from the bodies, for every kind of loader answer", async () => {
    for (const [kind, child] of Object.entries(children)) {
      const handler = router.createStaticHandler(tree(child) as never);
      const request = () => new Request("http://localhost/page");
      const expected = await outcome(await handler.query(request()));
      const got = await outcome(await handler.query(request(), { dataStrategy: bodilessDataStrategy(router.data) as never }));
      expect(got, kind).toEqual(expected);
    }
  });

  it("leaves the bodies of json() responses unread", async () => {
    const made: Response[] = [];
    const handler = router.createStaticHandler(
      tree(() => {
        const response = json({ read: false });
        made.push(response);
        return response;
      }) as never,
    );
    const context = (await handler.query(new Request("http://localhost/page"), {
      dataStrategy: bodilessDataStrategy(router.data) as never,
    })) as { loaderData: Record<string, unknown> };
    expect(context.loaderData.child).toEqual({ read: false });
    expect(made).toHaveLength(1);
    expect(made[0]!.bodyUsed).toBe(false);
    // Plain data is handed over as it is: no body was written and parsed back.
    expect(context.loaderData.child).toBe((made[0] as Response & { data: unknown }).data);
  });
});

describe("a loader's request", () => {
  function installed() {
    const module = { callRouteLoader: data.callRouteLoader };
    loadWithoutCopies(module, responses);
    return module;
  }
  const call = (url: string, loader: (args: { request: Request }) => unknown) => ({
    loadContext: {},
    loader,
    params: {},
    request: new Request(url),
    routeId: "routes/page",
    singleFetch: false,
  });

  it("is the request itself for an address without a query, and Remix's copy otherwise", async () => {
    const module = installed();
    const seen: Request[] = [];
    const remember = ({ request }: { request: Request }) => {
      seen.push(request);
      return { ok: true };
    };
    const plain = call("http://localhost/guestbook", remember);
    const withQuery = call("http://localhost/guestbook?index&_data=routes%2Fguestbook&offset=10", remember);
    await module.callRouteLoader(plain);
    await module.callRouteLoader(withQuery);
    expect(seen[0]).toBe(plain.request);
    expect(seen[1]).not.toBe(withQuery.request);
    expect(seen[1]!.url).toBe("http://localhost/guestbook?offset=10");
  });

  it("gets Remix's answers: JSON for a plain object, the response as returned, Remix's error for nothing", async () => {
    const module = installed();
    const answers: [string, () => unknown][] = [
      ["an object", () => ({ when: new Date(0), list: [1] })],
      ["a response", () => new Response("words", { status: 203 })],
      ["null", () => null],
    ];
    for (const [kind, loader] of answers) {
      const got = (await module.callRouteLoader(call("http://localhost/page", loader))) as Response;
      const expected = (await data.callRouteLoader(call("http://localhost/page", loader))) as Response;
      expect(await described(got), kind).toEqual(await described(expected));
    }
    const nothing = () => undefined;
    const refusal = await data.callRouteLoader(call("http://localhost/page", nothing)).catch((error: Error) => error.message);
    await expect(module.callRouteLoader(call("http://localhost/page", nothing))).rejects.toThrow(refusal as string);
    expect(refusal).toContain("routes/page");
  });
});
