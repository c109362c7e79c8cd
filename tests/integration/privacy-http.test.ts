// The family's privacy setting against the production server (`node
// server/index.mjs` on the build), on the database this test process changes
// the settings in: every level, every kind of address, with and without the
// passcode cookie or an admin session. Nothing restarts between levels: a
// change shows on the next request.
import { readdirSync } from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memories, rsvps, siteSettings } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import { getVisitorPasscode, updateSiteSettings } from "~/site/settings.server";
import type { SettingsPatch } from "~/site/settings.schema";
import { readManifest } from "../../scripts/first-load-js.mjs";
import { ROOT, request, requireBuild, startSite, type Answer, type Site } from "../support/site-process";

const PASSCODE = "Blue Heron";
const ADMIN = { username: "family", password: "a long passphrase" };
const ROBOTS_NOINDEX = "noindex, nofollow";
const META_ROBOTS = '<meta name="robots" content="noindex, nofollow"/>';
const PUBLIC_ROBOTS_TXT = "User-agent: *\nDisallow: /admin\nDisallow: /api/\n";
const HIDDEN_ROBOTS_TXT = "User-agent: *\nDisallow: /\n";
const PASSCODE_FIELD = 'name="passcode"';

let site: Site;
let adminCookie: string;
const cssBundle = `/build/${readdirSync(path.join(ROOT, "public/build")).find((name) => name.endsWith(".css"))}`;

beforeAll(async () => {
  requireBuild();
  await upsertAdmin(ADMIN.username, ADMIN.password);
  // The server shares this process's database file (tests/support/setup.ts), and
  // trusts Fly-Client-IP, so a test can stand for a visitor on another network.
  site = await startSite(path.dirname(process.env.DATABASE_PATH!), { FLY_APP_NAME: "privacy-test" });
  const login = await send("POST", "/api/admin/login", {
    body: JSON.stringify(ADMIN),
    headers: { "Content-Type": "application/json" },
  });
  expect(login.status).toBe(200);
  adminCookie = cookiePair(login, "__session");
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

beforeEach(() => {
  db.delete(siteSettings).run();
});

function send(method: string, urlPath: string, options: { body?: string | Buffer; headers?: Record<string, string> } = {}) {
  return request(site.port, method, urlPath, options);
}

function get(urlPath: string, headers: Record<string, string> = {}) {
  return send("GET", urlPath, { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8", ...headers } });
}

/** "name=value" of the cookie an answer sets. */
function cookiePair(answer: Answer, name: string): string {
  const header = [answer.headers["set-cookie"] ?? []].flat().find((cookie) => cookie.startsWith(`${name}=`));
  if (!header) throw new Error(`no ${name} cookie in ${JSON.stringify(answer.headers)}`);
  return header.split(";")[0]!;
}

async function change(patch: SettingsPatch) {
  const result = await updateSiteSettings(patch, operator("test"));
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Gives the passcode form `fields`, from the network `ip`. */
function postPasscode(fields: Record<string, string>, ip = "192.0.2.1") {
  return send("POST", "/passcode", {
    body: form(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Fly-Client-IP": ip },
  });
}

async function passcodeCookie(ip = "192.0.2.1") {
  const answer = await postPasscode({ passcode: PASSCODE, redirectTo: "/" }, ip);
  expect(answer.status).toBe(302);
  return cookiePair(answer, "memorial_passcode");
}

type Kind = "page" | "api" | "file" | "open";

/** An address of each kind; `file` ones are asked for as an <img> or a calendar app would (not HTML). */
const ROUTES: { path: string; kind: Kind }[] = [
  { path: "/", kind: "page" },
  { path: "/guestbook", kind: "page" },
  { path: "/share", kind: "page" },
  { path: "/gallery", kind: "page" },
  { path: "/gallery?type=VIDEO", kind: "page" },
  { path: "/poems", kind: "page" },
  { path: "/rsvp", kind: "page" },
  { path: "/slideshow?every=20", kind: "page" },
  { path: "/no-such-page", kind: "page" },
  { path: "/api/guestbook", kind: "api" },
  { path: "/api/gallery", kind: "api" },
  { path: "/api/poems", kind: "api" },
  { path: "/api/slideshow", kind: "api" },
  { path: "/api/no-such-thing", kind: "api" },
  { path: "/media/1/photo.jpg", kind: "file" },
  { path: "/service.ics", kind: "file" },
  { path: "/qr/guestbook.svg", kind: "file" },
  { path: "/images/hero.jpg", kind: "file" },
  { path: "/audio/karen-mode.mp3", kind: "file" },
  { path: "/healthz", kind: "open" },
  { path: "/robots.txt", kind: "open" },
  { path: "/favicon.svg", kind: "open" },
  { path: cssBundle, kind: "open" },
  { path: "/admin", kind: "open" },
  { path: "/admin/login", kind: "open" },
  { path: "/api/admin/pending-memories", kind: "open" },
];

function ask(route: { path: string; kind: Kind }, cookie?: string) {
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
  return route.kind === "file" ? send("GET", route.path, { headers: { ...headers, Accept: "*/*" } }) : get(route.path, headers);
}

const isHtml = (answer: Answer) => String(answer.headers["content-type"]).startsWith("text/html");

/** What each address answers on a public site: to a visitor, and to the logged-in admin. */
async function publicAnswers() {
  const visitor = new Map<string, number>();
  const admin = new Map<string, number>();
  for (const route of ROUTES) {
    visitor.set(route.path, (await ask(route)).status);
    admin.set(route.path, (await ask(route, adminCookie)).status);
  }
  return { visitor, admin };
}

describe("each visibility level, over every kind of address", () => {
  it("public: as before, no robots header or tag, robots.txt keeps out only the admin panel and the API", async () => {
    const { visitor } = await publicAnswers();
    expect(visitor.get("/")).toBe(200);
    expect(visitor.get("/no-such-page")).toBe(404);
    expect(visitor.get("/images/hero.jpg")).toBe(200);
    for (const route of ROUTES) {
      const answer = await ask(route);
      expect(answer.headers["x-robots-tag"], route.path).toBeUndefined();
      if (isHtml(answer)) expect(answer.body, route.path).not.toContain(META_ROBOTS);
    }
    expect((await get("/robots.txt")).body).toBe(PUBLIC_ROBOTS_TXT);
    const passcodePage = await get("/passcode?redirectTo=/gallery");
    expect([passcodePage.status, passcodePage.headers.location]).toEqual([302, "/gallery"]);
  });

  it("unlisted: the same answers, each with X-Robots-Tag, each page with the robots tag and its link preview, robots.txt refuses all", async () => {
    const before = await publicAnswers();
    await change({ visibility: "unlisted" });
    for (const route of ROUTES) {
      const answer = await ask(route);
      expect(answer.status, route.path).toBe(before.visitor.get(route.path));
      expect(answer.headers["x-robots-tag"], route.path).toBe(ROBOTS_NOINDEX);
      if (isHtml(answer)) expect(answer.body, route.path).toContain(META_ROBOTS);
    }
    const home = await get("/");
    expect(home.body).toContain('<meta property="og:title"');
    expect(home.body).toContain('<meta property="og:image"');
    expect((await get("/robots.txt")).body).toBe(HIDDEN_ROBOTS_TXT);
    // Nothing to ask for.
    expect((await get("/passcode")).status).toBe(302);
  });

  it("private without the passcode: pages are the passcode page (401), the API 401 JSON, files 401; the admin panel, robots.txt, assets and /healthz stay open", async () => {
    const before = await publicAnswers();
    await change({ visibility: "private", visitorPasscode: PASSCODE });
    for (const route of ROUTES) {
      const answer = await ask(route);
      expect(answer.headers["x-robots-tag"], route.path).toBe(ROBOTS_NOINDEX);
      if (isHtml(answer)) expect(answer.body, route.path).toContain(META_ROBOTS);
      switch (route.kind) {
        case "page":
          expect(answer.status, route.path).toBe(401);
          expect(answer.body, route.path).toContain(PASSCODE_FIELD);
          expect(answer.body, route.path).toContain(`<input type="hidden" name="redirectTo" value="${route.path}"/>`);
          expect(answer.headers["cache-control"], route.path).toBe("private, no-store");
          break;
        case "api":
          expect(answer.status, route.path).toBe(401);
          expect(JSON.parse(answer.body), route.path).toEqual({ errors: { passcode: [expect.stringContaining("passcode")] } });
          break;
        case "file":
          expect(answer.status, route.path).toBe(401);
          expect(answer.body, route.path).toContain("This memorial is private");
          break;
        case "open":
          expect(answer.status, route.path).toBe(before.visitor.get(route.path));
          expect(answer.body, route.path).not.toContain(PASSCODE_FIELD);
      }
    }
    expect((await get("/robots.txt")).body).toBe(HIDDEN_ROBOTS_TXT);
    expect((await get("/passcode")).status).toBe(200);
    // A file asked for by a browser's address bar gets the page, so the visitor can give the passcode.
    const ics = await get("/service.ics");
    expect([ics.status, ics.body.includes(PASSCODE_FIELD)]).toEqual([401, true]);
    const head = await send("HEAD", "/gallery", { headers: { Accept: "text/html" } });
    expect(head.status).toBe(401);
  });

  it("private with the passcode cookie: every address answers as on a public site, with X-Robots-Tag and the robots tag", async () => {
    const before = await publicAnswers();
    await change({ visibility: "private", visitorPasscode: PASSCODE });
    const cookie = await passcodeCookie();
    for (const route of ROUTES) {
      const answer = await ask(route, cookie);
      expect(answer.status, route.path).toBe(before.visitor.get(route.path));
      expect(answer.headers["x-robots-tag"], route.path).toBe(ROBOTS_NOINDEX);
      expect(answer.body, route.path).not.toContain(PASSCODE_FIELD);
      if (isHtml(answer)) expect(answer.body, route.path).toContain(META_ROBOTS);
    }
    expect((await get("/passcode?redirectTo=/poems", { Cookie: cookie })).headers.location).toBe("/poems");
  });

  it("private with an admin session: the administrator sees the site as everyone would, without the passcode", async () => {
    const before = await publicAnswers();
    await change({ visibility: "private", visitorPasscode: PASSCODE });
    for (const route of ROUTES) {
      const answer = await ask(route, adminCookie);
      expect(answer.status, route.path).toBe(before.admin.get(route.path));
      expect(answer.headers["x-robots-tag"], route.path).toBe(ROBOTS_NOINDEX);
      expect(answer.body, route.path).not.toContain(PASSCODE_FIELD);
    }
    expect(before.admin.get("/admin")).toBe(200);
  });

  it("answers refused before Remix carry the robots header too: another site's form, an unreadable address", async () => {
    await change({ visibility: "unlisted" });
    const crossSite = await send("POST", "/api/guestbook", {
      body: "{}",
      headers: { "Content-Type": "application/json", Origin: "https://elsewhere.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers["x-robots-tag"]).toBe(ROBOTS_NOINDEX);
    const unreadable = await send("GET", "/images/%E0%A4%A");
    expect(unreadable.status).toBe(400);
    expect(unreadable.headers["x-robots-tag"]).toBe(ROBOTS_NOINDEX);
  });

  it("a change of visibility shows on the very next request, both ways", async () => {
    const cookie = await (async () => {
      await change({ visibility: "private", visitorPasscode: PASSCODE });
      return passcodeCookie();
    })();
    expect((await get("/poems")).status).toBe(401);
    await change({ visibility: "public" });
    expect((await get("/poems")).status).toBe(200);
    expect((await get("/poems")).headers["x-robots-tag"]).toBeUndefined();
    await change({ visibility: "private" });
    expect((await get("/poems")).status).toBe(401);
    // The passcode did not change, so a visitor who gave it is still in.
    expect((await get("/poems", { Cookie: cookie })).status).toBe(200);
  });
});

describe("the passcode page", () => {
  beforeEach(async () => {
    await change({ visibility: "private", visitorPasscode: PASSCODE, personName: "Margaret Hale" });
  });

  it("names the person and returns to the page asked for once the right passcode is given, whatever its capitals and spaces", async () => {
    const page = await get("/gallery?type=VIDEO");
    expect(page.body).toContain("In Loving Memory of Margaret Hale");
    expect(page.body).toContain('<label for="visitor-passcode-passcode"');
    const answer = await postPasscode({ passcode: "  blue HERON ", redirectTo: "/gallery?type=VIDEO" }, "192.0.2.10");
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/gallery?type=VIDEO");
    const setCookie = [answer.headers["set-cookie"]].flat().find((c) => c?.startsWith("memorial_passcode="))!;
    expect(setCookie).toMatch(/; Max-Age=15552000;/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    const cookie = cookiePair(answer, "memorial_passcode");
    for (const urlPath of ["/gallery?type=VIDEO", "/", "/guestbook", "/api/poems"]) {
      expect((await get(urlPath, { Cookie: cookie })).status, urlPath).toBe(200);
    }
  });

  it("a wrong passcode brings the form back with a clear message (401), an empty one asks for it (400); nothing is set", async () => {
    const wrong = await postPasscode({ passcode: "grey heron", redirectTo: "/poems" }, "192.0.2.11");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain("That passcode is not right. Please check it with the family and try again.");
    expect(wrong.body).toContain('<input type="hidden" name="redirectTo" value="/poems"/>');
    expect(wrong.body).not.toContain("grey heron");
    expect(wrong.headers["set-cookie"] ?? []).not.toContainEqual(expect.stringContaining("memorial_passcode"));
    const empty = await postPasscode({ passcode: "   ", redirectTo: "/poems" }, "192.0.2.11");
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("Please enter the passcode.");
  });

  it("only ever returns to a page of this site, and never to itself", async () => {
    for (const [redirectTo, location] of [
      ["//evil.example/x", "/"],
      ["https://evil.example/", "/"],
      ["/\\evil.example", "/"],
      ["/passcode", "/"],
      ["/passcode?redirectTo=/poems", "/"],
      ["/poems#p1", "/poems#p1"],
    ]) {
      const answer = await postPasscode({ passcode: PASSCODE, redirectTo: redirectTo! }, "192.0.2.12");
      expect(answer.headers.location, redirectTo).toBe(location);
    }
  });

  it("a new passcode shuts out the cookies given for the old one; forged and foreign cookies never open", async () => {
    const cookie = await passcodeCookie("192.0.2.13");
    expect((await get("/poems", { Cookie: cookie })).status).toBe(200);
    const version = getVisitorPasscode()!.version;
    await change({ visitorPasscode: "Grey Heron" });
    expect((await get("/poems", { Cookie: cookie })).status).toBe(401);
    expect((await get("/api/poems", { Cookie: cookie })).status).toBe(401);

    const current = getVisitorPasscode()!.version;
    expect(current).not.toBe(version);
    const unsigned = `memorial_passcode=${encodeURIComponent(Buffer.from(JSON.stringify({ version: current })).toString("base64"))}`;
    const badSignature = `${cookiePair(await postPasscode({ passcode: "Grey Heron" }, "192.0.2.13"), "memorial_passcode").slice(0, -4)}AAAA`;
    for (const forged of [unsigned, badSignature, "memorial_passcode=", "memorial_passcode=%%%", "__session=nonsense"]) {
      expect((await get("/poems", { Cookie: forged })).status, forged).toBe(401);
    }
  });

  it("a page's form sent without the passcode is refused and nothing is stored", async () => {
    const before = { memories: db.select({ n: count() }).from(memories).get()!.n, rsvps: db.select({ n: count() }).from(rsvps).get()!.n };
    const headers = { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" };
    const memory = { name: "Stranger", email: "stranger@example.com", message: "Trying to post without the passcode.", canDisplay: "on" };
    const guestbook = await send("POST", "/guestbook", { body: form(memory), headers });
    expect(guestbook.status).toBe(401);
    expect(guestbook.body).toContain(PASSCODE_FIELD);
    expect(guestbook.body).toContain('<input type="hidden" name="redirectTo" value="/guestbook"/>');
    const rsvp = await send("POST", "/rsvp", { body: form({ name: "Stranger", email: "s@example.com", guestCount: "2" }), headers });
    expect(rsvp.status).toBe(401);
    expect((await send("POST", "/karen-mode", { body: form({ enabled: "on" }), headers })).status).toBe(401);

    const json = { "Content-Type": "application/json" };
    for (const [method, urlPath, body] of [
      ["POST", "/api/guestbook", JSON.stringify({ ...memory, canDisplay: true })],
      ["POST", "/api/rsvp", JSON.stringify({ name: "Stranger", email: "s@example.com", guestCount: 1 })],
      ["POST", "/api/uploads/sign", ""],
      ["POST", "/api/uploads/complete", JSON.stringify({ uploadURL: "/api/uploads/put/x", submittedBy: "S (s@example.com)" })],
      ["POST", "/api/uploads/s3/multipart", JSON.stringify({ filename: "a.jpg", type: "image/jpeg", size: 10 })],
    ] as const) {
      const answer = await send(method, urlPath, { body, headers: json });
      expect(answer.status, urlPath).toBe(401);
      expect(JSON.parse(answer.body).errors.passcode, urlPath).toHaveLength(1);
    }
    const put = await send("PUT", "/api/uploads/put/originals/abc.jpg?expires=1&signature=x", {
      body: Buffer.alloc(1000),
      headers: { "Content-Type": "image/jpeg" },
    });
    expect(put.status).toBe(401);

    expect(db.select({ n: count() }).from(memories).get()!.n).toBe(before.memories);
    expect(db.select({ n: count() }).from(rsvps).get()!.n).toBe(before.rsvps);

    // With the passcode, the same message is taken.
    const cookie = await passcodeCookie("192.0.2.14");
    const taken = await send("POST", "/api/guestbook", {
      body: JSON.stringify({ ...memory, canDisplay: true }),
      headers: { ...json, Cookie: cookie },
    });
    expect(taken.status).toBe(201);
    expect(db.select().from(memories).where(eq(memories.name, "Stranger")).all()).toHaveLength(1);
  });

  it("a text browser, which would not show a 401 page, is sent to the passcode page, and told a wrong passcode with 403", async () => {
    const lynx = { "User-Agent": "Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.9" };
    const page = await get("/gallery?type=VIDEO", lynx);
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe(`/passcode?redirectTo=${encodeURIComponent("/gallery?type=VIDEO")}`);
    const passcodePage = await get(page.headers.location!, lynx);
    expect(passcodePage.status).toBe(200);
    expect(passcodePage.body).toContain('<input type="hidden" name="redirectTo" value="/gallery?type=VIDEO"/>');
    const wrong = await send("POST", "/passcode", {
      body: form({ passcode: "grey heron", redirectTo: "/gallery" }),
      headers: { ...lynx, "Content-Type": "application/x-www-form-urlencoded", "Fly-Client-IP": "192.0.2.18" },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain("That passcode is not right.");
    // The API and files answer 401 as to everyone.
    expect((await send("GET", "/api/poems", { headers: lynx })).status).toBe(401);
  });

  it("the browser app fetching a page's data is told to load the page itself (the passcode page)", async () => {
    for (const [urlPath, location] of [
      ["/gallery?_data=routes%2Fgallery", "/gallery"],
      ["/?index&_data=routes%2F_index", "/"],
      ["/guestbook?offset=10&_data=routes%2Fguestbook", "/guestbook?offset=10"],
    ]) {
      const answer = await send("GET", urlPath!);
      expect(answer.status, urlPath).toBe(204);
      expect(answer.headers["x-remix-redirect"], urlPath).toBe(location);
      expect(answer.headers["x-remix-reload-document"], urlPath).toBe("true");
    }
  });

  it("the browser app asking which routes serve an address learns nothing of the memorial's pages without the passcode", async () => {
    await change({ visibility: "private", visitorPasscode: PASSCODE });
    const { manifest } = await readManifest(path.join(ROOT, "public/build"));
    const routesFor = (paths: string[], headers: Record<string, string> = {}) =>
      send("GET", `/__manifest?${paths.map((p) => `p=${encodeURIComponent(p)}`).join("&")}&version=${manifest.version}`, { headers });
    // Without the passcode: nothing, and the app is told to load the page itself (the passcode page) when the visitor goes there.
    for (const paths of [["/guestbook"], ["/admin/login", "/gallery"], ["/admin/../guestbook"], ["//poems"], ["/ADMIN/../rsvp"], []]) {
      const answer = await routesFor(paths);
      expect(answer.status, paths.join()).toBe(204);
      expect(answer.headers["x-remix-reload-document"], paths.join()).toBe("true");
      expect(answer.headers["cache-control"], paths.join()).toContain("no-store");
      expect(answer.body, paths.join()).toBe("");
    }
    // The admin login card's links lead to the admin panel: those routes are given, and no page of the memorial's.
    const admin = await routesFor(["/admin/login", "/admin"]);
    expect(admin.status).toBe(200);
    const adminRoutes = Object.keys(JSON.parse(admin.body) as Record<string, unknown>);
    expect(adminRoutes).toContain("routes/admin_.login");
    expect(adminRoutes.filter((id) => !/^(root|routes\/admin)/.test(id))).toEqual([]);
    expect(String(admin.headers["cache-control"])).not.toMatch(/\bpublic\b/);
    // With the passcode, or as the admin: the routes of the pages asked for.
    for (const cookie of [await passcodeCookie(), adminCookie]) {
      const answer = await routesFor(["/guestbook", "/gallery"], { Cookie: cookie });
      expect(answer.status).toBe(200);
      expect(Object.keys(JSON.parse(answer.body) as Record<string, unknown>)).toEqual(
        expect.arrayContaining(["routes/guestbook", "routes/gallery"]),
      );
    }
  });

  it("addresses that only look open are not: dot segments, encodings, another case", async () => {
    for (const urlPath of [
      "/admin/../guestbook",
      "/admin/%2e%2e/gallery",
      "/api/admin/../../api/poems",
      "/build/../images/hero.jpg",
      "/healthz/../poems",
      "/robots.txt/../guestbook",
      "/passcode/../gallery",
      "//guestbook",
      "/ADMIN/../poems",
      "/Guestbook",
    ]) {
      const answer = await get(urlPath);
      expect(answer.status, urlPath).toBe(401);
    }
  });

  it("keeps what it sends out of shared caches: a public file is cached privately", async () => {
    const cookie = await passcodeCookie("192.0.2.15");
    expect((await send("GET", "/images/hero.jpg", { headers: { Cookie: cookie } })).headers["cache-control"]).toBe("private, max-age=3600");
    // Fingerprinted assets are the same for everyone.
    expect((await get(cssBundle)).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("keeps every page, API answer and file out of shared caches, the calendar file too, and tells no CDN to keep any", async () => {
    const cookie = await passcodeCookie("192.0.2.16");
    for (const route of ROUTES.filter((route) => route.kind !== "open")) {
      const answer = await ask(route, cookie);
      expect(answer.headers["cache-control"], route.path).toMatch(/\bprivate\b/);
      expect(answer.headers["cdn-cache-control"], route.path).toBeUndefined();
    }
  });
});

describe("what a visitor without the passcode can learn", () => {
  const SECRETS = {
    venueName: "The Hidden Boathouse",
    venueAddress: "12 Secret Lane, Nowhere",
    welcomeMessage: "Only the family should read this welcome.",
    contactEmail: "hidden-family@example.com",
    serviceNote: "Reception at the lighthouse",
  };

  beforeEach(async () => {
    await change({ visibility: "private", visitorPasscode: PASSCODE, personName: "Margaret Hale", ...SECRETS });
  });

  it("the passcode page, the admin login card and their data carry the name and nothing of the service or the family's words", async () => {
    for (const urlPath of ["/gallery", "/passcode", "/admin/login", "/passcode?_data=root", "/admin/login?_data=root"]) {
      const answer = await get(urlPath);
      expect(answer.body, urlPath).toContain("Margaret Hale");
      for (const secret of Object.values(SECRETS)) expect(answer.body, urlPath).not.toContain(secret);
    }
    // With the passcode, the home page shows them.
    const home = await get("/", { Cookie: await passcodeCookie("192.0.2.16") });
    expect(home.body).toContain(SECRETS.venueName);
  });

  it("no page or data sends the passcode's hash or version, with the passcode or without", async () => {
    const { hash, version } = getVisitorPasscode()!;
    const cookie = await passcodeCookie("192.0.2.17");
    for (const headers of [{}, { Cookie: cookie }, { Cookie: adminCookie }] as Record<string, string>[]) {
      for (const urlPath of ["/", "/gallery", "/passcode", "/admin/login", "/admin", "/?_data=root", "/passcode?_data=root"]) {
        const answer = await get(urlPath, headers);
        for (const secret of [hash, hash.split("$").at(-1)!, version, PASSCODE, PASSCODE.toLowerCase()]) {
          expect(answer.body, `${urlPath} ${JSON.stringify(headers)}`).not.toContain(secret);
        }
      }
    }
  });
});

describe("passcode guesses", () => {
  beforeEach(async () => {
    await change({ visibility: "private", visitorPasscode: PASSCODE });
  });

  it("are throttled per network: 10 in 15 minutes, then 429 with Retry-After (even for the right passcode); another network is not held up", async () => {
    for (let i = 0; i < 10; i++) expect((await postPasscode({ passcode: `guess ${i}` }, "203.0.113.7")).status).toBe(401);
    const refused = await postPasscode({ passcode: PASSCODE }, "203.0.113.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(800);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(900);
    expect(refused.body).toContain("Too many passcodes were tried from your network. Please wait 15 minutes and try again.");
    expect(refused.headers["set-cookie"] ?? []).not.toContainEqual(expect.stringContaining("memorial_passcode"));
    // The same IPv6 /64 is one network; another network gets in.
    for (let i = 0; i < 10; i++) expect((await postPasscode({ passcode: `guess ${i}` }, `2001:db8:7:7::${i + 1}`)).status).toBe(401);
    expect((await postPasscode({ passcode: PASSCODE }, "2001:db8:7:7::ffff")).status).toBe(429);
    expect((await postPasscode({ passcode: PASSCODE }, "198.51.100.9")).status).toBe(302);
  });

  it("the right passcode gives the network its tries back", async () => {
    for (let i = 0; i < 9; i++) expect((await postPasscode({ passcode: `guess ${i}` }, "203.0.113.8")).status).toBe(401);
    expect((await postPasscode({ passcode: PASSCODE }, "203.0.113.8")).status).toBe(302);
    for (let i = 0; i < 10; i++) expect((await postPasscode({ passcode: `guess ${i}` }, "203.0.113.8")).status).toBe(401);
  });

  it("odd input is a clear 4xx, never a 500, and uses up no tries", async () => {
    const ip = "203.0.113.9";
    const urlencoded = { "Content-Type": "application/x-www-form-urlencoded", "Fly-Client-IP": ip };
    const cases: [string, { body: string | Buffer; headers: Record<string, string> }, number][] = [
      ["a passcode far too long", { body: form({ passcode: "x".repeat(20_000) }), headers: urlencoded }, 400],
      ["no passcode field", { body: form({ redirectTo: "/" }), headers: urlencoded }, 400],
      ["an empty body", { body: "", headers: urlencoded }, 400],
      ["more than a form may hold", { body: form({ passcode: "x".repeat(70_000) }), headers: urlencoded }, 413],
      ["JSON", { body: JSON.stringify({ passcode: PASSCODE }), headers: { "Content-Type": "application/json", "Fly-Client-IP": ip } }, 415],
      ["no type", { body: "passcode=x", headers: { "Fly-Client-IP": ip } }, 415],
      [
        "a broken multipart form",
        {
          body: '--b\r\nContent-Disposition: form-data; name="passcode"\r\n\r\nx',
          headers: { "Content-Type": "multipart/form-data; boundary=b", "Fly-Client-IP": ip },
        },
        400,
      ],
      ["a control character in redirectTo", { body: form({ passcode: "", redirectTo: "/\u0000x" }), headers: urlencoded }, 400],
    ];
    for (const [what, options, status] of cases) {
      const answer = await send("POST", "/passcode", options);
      expect(answer.status, what).toBe(status);
    }
    // None of them was a try: ten wrong passcodes are still allowed.
    for (let i = 0; i < 10; i++) expect((await postPasscode({ passcode: `guess ${i}` }, ip)).status).toBe(401);
  });

  it("a multipart form works like the plain one", async () => {
    const body = new FormData();
    body.set("passcode", PASSCODE);
    body.set("redirectTo", "/poems");
    const answer = await fetch(`http://127.0.0.1:${site.port}/passcode`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: { "Fly-Client-IP": "203.0.113.10" },
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/poems");
    expect(answer.headers.get("set-cookie")).toMatch(/^memorial_passcode=/);
  });
});
