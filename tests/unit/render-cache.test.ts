// The render cache's rules on their own (server/render-cache/, in front of
// a stand-in for Remix), and the content version it trusts (db/write-version).
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import compression from "compression";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { chooseEncoding, etagMatches, ownScripts } from "../../server/render-cache/http.mjs";
import { createRenderCache, renderCacheFromEnv } from "../../server/render-cache/middleware.mjs";
import { watchWrites } from "../../db/write-version.server";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

interface Rendered {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  body: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The cache in front of `render`, on a loopback port; `state` is what the stand-in app reads. */
async function cached(
  render: (request: Request, nonce: string) => Rendered | Promise<Rendered>,
  options: {
    limits?: Record<string, number>;
    now?: () => number;
    variant?: (req: http.IncomingMessage) => string | null;
    fastPath?: (req: http.IncomingMessage) => { variant: string; robots: string | null } | null;
    sharedCachesAllowed?: boolean;
  } = {},
) {
  const state = { version: "1", renders: 0 };
  const app = express();
  app.disable("x-powered-by");
  const cache = createRenderCache({
    handleRequest: async (request, context) => {
      state.renders++;
      const answer = await render(request, String(context.cspNonce));
      return new Response(answer.body, {
        status: answer.status ?? 200,
        headers: { "Content-Type": answer.type ?? "text/html; charset=utf-8", ...answer.headers },
      });
    },
    getLoadContext: () => ({}),
    hooks: {
      contentVersion: () => state.version,
      variantOf: async (req) => (options.variant ? options.variant(req) : "in"),
      visitOf: async (req) => {
        const visit = options.fastPath ? options.fastPath(req) : null;
        return visit && { ...visit, version: state.version };
      },
      sharedCachesAllowed: () => options.sharedCachesAllowed ?? true,
    },
    contentSecurityPolicy: (hashes) => `script-src 'self' ${hashes.join(" ")}`.trim(),
    compress: compression(),
    limits: options.limits,
    now: options.now,
    baseHeaders: { "X-Content-Type-Options": "nosniff" },
  });
  app.use((_req, res, next) => {
    res.locals.visibility = "public";
    next();
  });
  app.use(cache);
  app.use((_req, res) => res.status(404).send("not for the cache"));
  // As server/index.mjs does: a copy goes out before Express when the fast path finds one.
  const server = http.createServer((req, res) => {
    void cache.serveFromCache(req, res).then((served) => served || app(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const get = async (urlPath: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, { headers });
    return {
      status: response.status,
      headers: response.headers,
      body: await response.text(),
      from: response.headers.get("x-render-cache"),
    };
  };
  return { state, get, cache };
}

describe("what the cache keeps", () => {
  it("keeps a 200 page or JSON answer, and serves it until the content version moves", async () => {
    const { state, get } = await cached((request) => ({ body: `<p>${new URL(request.url).pathname} at ${state.version}</p>` }));
    expect((await get("/a")).from).toBe("miss");
    expect(await get("/a")).toMatchObject({ from: "hit", body: "<p>/a at 1</p>" });
    state.version = "2";
    expect(await get("/a")).toMatchObject({ from: "miss", body: "<p>/a at 2</p>" });
    expect(state.renders).toBe(2);
  });

  it("never keeps an answer that sets a cookie, is not a 200, says it is private, or is not a page or JSON", async () => {
    const answers: Record<string, Rendered> = {
      "/cookie": { body: "<p>hi</p>", headers: { "Set-Cookie": "a=b" } },
      "/missing": { status: 404, body: "<p>no</p>" },
      "/private": { body: "<p>yours</p>", headers: { "Cache-Control": "private, no-store" } },
      "/file": { type: "image/svg+xml", body: "<svg/>" },
    };
    const { state, get } = await cached((request) => answers[new URL(request.url).pathname]!);
    for (const address of Object.keys(answers)) {
      const first = await get(address);
      const second = await get(address);
      expect(second.from, address).toBeNull();
      expect(second.body).toBe(first.body);
    }
    expect(state.renders).toBe(8);
  });

  it("does not keep what was rendered while the content changed", async () => {
    const { state, get } = await cached(() => {
      state.version = String(Number(state.version) + 1);
      return { body: "<p>racing a write</p>" };
    });
    await get("/");
    await get("/");
    expect(state.renders).toBe(2);
  });

  it("lets a copy live a minute at most", async () => {
    let clock = 1_000_000;
    const { state, get } = await cached(() => ({ body: "<p>about 2 hours ago</p>" }), { now: () => clock });
    await get("/");
    clock += 59_000;
    expect((await get("/")).from).toBe("hit");
    clock += 1_000;
    expect((await get("/")).from).toBe("miss");
    expect(state.renders).toBe(2);
  });

  it("keeps apart what the variant tells apart, and leaves to others what it refuses", async () => {
    const { state, get } = await cached((request) => ({ body: `<p>${request.headers.get("x-mode")}</p>` }), {
      variant: (req) => (req.headers["x-mode"] === "mine" ? null : String(req.headers["x-mode"])),
    });
    expect((await get("/", { "x-mode": "a" })).body).toBe("<p>a</p>");
    expect((await get("/", { "x-mode": "b" })).body).toBe("<p>b</p>");
    expect((await get("/", { "x-mode": "a" })).from).toBe("hit");
    expect(await get("/", { "x-mode": "mine" })).toMatchObject({ status: 404, body: "not for the cache" });
    expect(state.renders).toBe(2);
  });

  it("is bounded: by count, by bytes, and by the size of one answer", async () => {
    const { cache, get } = await cached((request) => ({ body: "x".repeat(Number(new URL(request.url).searchParams.get("size"))) }), {
      limits: { maxEntries: 3, maxBytes: 3_000, maxEntryBytes: 1_500 },
    });
    for (const n of [1, 2, 3, 4]) await get(`/?size=100&n=${n}`);
    expect(cache.store.entries.size).toBe(3);
    expect((await get("/?size=100&n=1")).from).toBe("miss");
    await get("/?size=2000");
    expect((await get("/?size=2000")).from, "too big to keep").toBeNull();
    for (const n of [5, 6]) await get(`/?size=1400&n=${n}`);
    expect(cache.store.bytes).toBeLessThanOrEqual(3_000);
  });

  it("renders once for many visitors asking at the same moment", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { state, get } = await cached(async () => {
      await gate;
      return { body: "<p>one render</p>" };
    });
    const answers = Array.from({ length: 10 }, () => get("/crowd"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const bodies = await Promise.all(answers);
    expect(bodies.every((answer) => answer.body === "<p>one render</p>")).toBe(true);
    expect(state.renders).toBe(1);
  });
});

describe("the cached answer", () => {
  it("is compressed once in brotli and gzip, with an ETag, a 304 and the public caching of a public memorial", async () => {
    const page = `<html><body>${"<p>a memory of a wonderful person</p>".repeat(100)}<script>window.x = 1;</script></body></html>`;
    const { get } = await cached((_request, nonce) => ({ body: page.replace("<script>", `<script nonce="${nonce}">`) }));
    const first = await get("/", { "Accept-Encoding": "br" });
    expect(first.headers.get("content-encoding")).toBe("br");
    expect(first.body).toBe(page);
    const gzipped = await get("/", { "Accept-Encoding": "gzip" });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.body).toBe(page);
    const etag = first.headers.get("etag")!;
    expect(gzipped.headers.get("etag")).toBe(etag);
    expect((await get("/", { "If-None-Match": etag })).status).toBe(304);
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=5, stale-while-revalidate=30");
    expect(first.headers.get("cdn-cache-control")).toBe("max-age=5, stale-while-revalidate=30");
    expect(first.headers.get("content-security-policy")).toBe(`script-src 'self' ${sha256("window.x = 1;")}`);
  });

  it("is kept from shared caches when the site's address is not fixed (pages name the host the request gave)", async () => {
    const { get } = await cached(() => ({ body: "<p>og:url of this host</p>" }), { sharedCachesAllowed: false });
    await get("/");
    const again = await get("/");
    expect(again.from).toBe("hit");
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    expect(again.headers.get("cdn-cache-control")).toBeNull();
  });

  it("allows only the scripts the app emitted, not one that slipped into the content", async () => {
    const { get } = await cached((_request, nonce) => ({
      body: `<p>A memory<script>steal()</script></p><script nonce="${nonce}">app()</script>`,
    }));
    const page = await get("/");
    expect(page.headers.get("content-security-policy")).toBe(`script-src 'self' ${sha256("app()")}`);
    expect(page.body).toBe("<p>A memory<script>steal()</script></p><script>app()</script>");
  });

  it("goes out ahead of the middleware with the same headers, plus the gate's robots header", async () => {
    const page = `<p>${"words ".repeat(300)}</p><script>go()</script>`;
    const { state, get } = await cached(() => ({ body: page, headers: { "X-Remix-Response": "yes" } }), {
      fastPath: (req) => (req.headers["x-unlisted"] ? { variant: "in", robots: "noindex, nofollow" } : { variant: "in", robots: null }),
    });
    const kept = await get("/", { "Accept-Encoding": "gzip" });
    expect(kept.from).toBe("miss");
    const fast = await get("/", { "Accept-Encoding": "gzip" });
    expect(fast.from).toBe("hit");
    expect(fast.body).toBe(page);
    const names = (headers: Headers) => [...headers.keys()].filter((name) => !["date", "x-render-cache"].includes(name)).sort();
    expect(names(fast.headers)).toEqual([...names(kept.headers), "x-content-type-options"].sort());
    for (const name of names(kept.headers)) expect(fast.headers.get(name), name).toBe(kept.headers.get(name));
    expect((await get("/", { "x-unlisted": "1" })).headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect((await get("/", { "If-None-Match": kept.headers.get("etag")! })).status).toBe(304);
    expect(state.renders).toBe(1);
  });

  it("keeps the route's own Cache-Control", async () => {
    const { get } = await cached(() => ({ body: "<form></form>", headers: { "Cache-Control": "no-store" } }));
    await get("/");
    const again = await get("/");
    expect(again.from).toBe("hit");
    expect(again.headers.get("cache-control")).toBe("no-store");
  });
});

describe("the cache's helpers", () => {
  it("hashes the scripts marked with the render's nonce as the browser does, and takes the nonce out", () => {
    const { html, hashes } = ownScripts(
      '<script nonce="n1">a()</script><script src="/x.js" nonce="n1"></script><script type="module" nonce="n1" async="">b()</script><script>c()</script><script nonce="other">d()</script>',
      "n1",
    );
    expect(hashes).toEqual([sha256("a()"), sha256("b()")]);
    expect(html).toBe(
      '<script>a()</script><script src="/x.js"></script><script type="module" async="">b()</script><script>c()</script><script nonce="other">d()</script>',
    );
  });

  it("chooses brotli, then gzip, as the browser accepts", () => {
    const both = { br: 1, gzip: 1 };
    expect(chooseEncoding("gzip, deflate, br", both)).toBe("br");
    expect(chooseEncoding("gzip", both)).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip", both)).toBe("gzip");
    expect(chooseEncoding("br;q=0.5, gzip;q=0.8", both)).toBe("gzip");
    expect(chooseEncoding("*", both)).toBe("br");
    expect(chooseEncoding("br", {})).toBe("identity");
    expect(chooseEncoding(undefined, both)).toBe("identity");
  });

  it("compares ETags weakly, in lists and with *", () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches("*", 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(etagMatches(undefined, 'W/"abc"')).toBe(false);
  });

  it("is on unless RENDER_CACHE=off, and refuses anything else", () => {
    expect(renderCacheFromEnv({})).toBe(true);
    expect(renderCacheFromEnv({ RENDER_CACHE: "on" })).toBe(true);
    expect(renderCacheFromEnv({ RENDER_CACHE: "OFF" })).toBe(false);
    expect(() => renderCacheFromEnv({ RENDER_CACHE: "sometimes" })).toThrow(/RENDER_CACHE/);
  });
});

describe("the content version", () => {
  function open() {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "memorial-version-")), "v.db");
    const sqlite = new Database(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.exec("create table memories (id integer primary key, message text); create table sessions (sid text primary key)");
    return { sqlite, file, version: watchWrites(sqlite) };
  }

  it("moves with every write to a table visitors may see, whether it succeeds or not, and not with reads", () => {
    const { sqlite, version } = open();
    const before = version.current();
    sqlite.prepare("select * from memories").all();
    expect(version.current()).toBe(before);
    sqlite.prepare('insert into "memories" (message) values (?)').run("hello");
    const afterInsert = version.current();
    expect(afterInsert).not.toBe(before);
    sqlite.prepare("update memories set message = ? returning id").all("changed");
    expect(version.current()).not.toBe(afterInsert);
    const afterUpdate = version.current();
    expect(() => sqlite.prepare("insert into memories (id, message) values (1, 'duplicate')").run()).toThrow();
    expect(version.current()).not.toBe(afterUpdate);
  });

  it("leaves out tables no visitor sees (sessions)", () => {
    const { sqlite, version } = open();
    const before = version.current();
    sqlite.prepare('insert into "sessions" (sid) values (?)').run("abc");
    sqlite.prepare("delete from sessions").run();
    expect(version.current()).toBe(before);
  });

  it("counts writes inside a transaction, and commits of other connections and processes", () => {
    const { sqlite, file, version } = open();
    const before = version.current();
    sqlite.transaction(() => sqlite.prepare("insert into memories (message) values ('in a transaction')").run())();
    const afterTransaction = version.current();
    expect(afterTransaction).not.toBe(before);
    const other = new Database(file);
    other.prepare("insert into memories (message) values ('from elsewhere')").run();
    other.close();
    expect(version.current()).not.toBe(afterTransaction);
  });

  it("can be moved by changes outside the database", () => {
    const { version } = open();
    const before = version.current();
    version.bump();
    expect(version.current()).not.toBe(before);
  });
});
