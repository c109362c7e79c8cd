// The render cache against the production server (`node server/index.mjs` on
// the build): every kind of write, sent as the family's browser or a visitor
// sends it, makes the next anonymous read a fresh render that shows it; what
// belongs to one visitor (an admin's pages, a flash message, a form's answer,
// a private memorial's passcode page) is never served from the cache; repeat
// visits get 304s; cached pages allow their inline scripts by hash.
import { createHash } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, request, requireBuild, scratchDir, startSite, type Answer, type Site } from "../support/site-process";

const ADMIN = { username: "family", password: "render-cache-test-password" };
const BUNDLED_SONG = readFileSync(path.resolve(__dirname, "../../public/audio/karen-mode.mp3"));

let site: Site;
let admin: string;

const cookieOf = (answer: Answer) => (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]).join("; ");
const json = <T>(answer: Answer) => JSON.parse(answer.body) as T;
const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 10)}`;

/** A visitor's GET: no cookie, no compression (so the body reads as text). */
const visit = (urlPath: string, headers: Record<string, string> = {}) => request(site.port, "GET", urlPath, { headers });

const asAdmin = (method: string, urlPath: string, body?: unknown) =>
  request(site.port, method, urlPath, {
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { Cookie: admin, "Content-Type": "application/json" },
  });

/** A plain form post, as a browser without JavaScript sends it. */
const postForm = (urlPath: string, fields: Record<string, string>, cookie = admin) =>
  request(site.port, "POST", urlPath, {
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });

async function postMultipart(urlPath: string, fields: Record<string, string | { bytes: Buffer; name: string; type: string }>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.name);
  }
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  return request(site.port, "POST", urlPath, { body, headers: { "Content-Type": encoded.headers.get("Content-Type")!, Cookie: admin } });
}

const photo = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** A signed address for one file, and the PUT of a photo to it. */
async function storePhoto() {
  const signed = await postJson(site.port, "/api/uploads/sign", {});
  expect(signed.status, signed.body).toBe(200);
  const target = new URL(json<{ uploadURL: string }>(signed).uploadURL);
  const put = await request(site.port, "PUT", target.pathname + target.search, {
    body: await photo("#8a6"),
    headers: { "Content-Type": "image/jpeg" },
  });
  expect(put.status, put.body).toBe(200);
  return target;
}

/** A visitor's photo, sent, processed and waiting for the family. */
async function pendingPhoto(name: string): Promise<number> {
  const target = await storePhoto();
  const done = await postJson(site.port, "/api/uploads/complete", {
    uploadURL: target.toString(),
    submittedBy: "Cache Tester (cache@example.com)",
    type: "IMAGE",
    originalName: name,
  });
  expect(done.status, done.body).toBe(201);
  return json<{ id: number }>(done).id;
}

async function pendingMemory(message: string): Promise<number> {
  const sent = await postJson(site.port, "/api/guestbook", { name: "Cache Tester", email: "cache@example.com", message });
  expect(sent.status, sent.body).toBe(201);
  return json<{ id: number }>(sent).id;
}

/** Reads an address until its answer comes from the cache, so the next read after a write would be stale if the write were missed. */
async function warm(urlPath: string) {
  await visit(urlPath);
  const again = await visit(urlPath);
  expect(again.status, urlPath).toBe(200);
  expect(again.headers["x-render-cache"], `${urlPath} is served from the cache before the write`).toBe("hit");
  return again;
}

beforeAll(async () => {
  requireBuild();
  site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, COMPLETION_WAIT_MS: "120000" });
  // The configured administrator is created just after the server starts listening.
  let login = await postJson(site.port, "/api/admin/login", ADMIN);
  for (let attempt = 0; login.status === 401 && attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    login = await postJson(site.port, "/api/admin/login", ADMIN);
  }
  expect(login.status, login.body).toBe(200);
  admin = cookieOf(login);
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

/** Ids and words the cases share (a later case undoes an earlier one's write). */
const made = {
  apiMemory: { id: 0, message: unique("Approved through the API") },
  formMemory: { id: 0, message: unique("Approved from the admin panel") },
  apiPhoto: 0,
  formPhoto: 0,
  poem: { id: 0, title: unique("A poem through the API") },
  formPoemTitle: unique("A poem from the form"),
  published: { memory: 0, message: unique("Published, then taken back"), corrected: unique("Corrected by the family"), photo: 0 },
};

interface WriteCase {
  write: string;
  /** The address whose next anonymous read must show the write. */
  read: string;
  prepare?: () => Promise<void>;
  /** Sends the write as the site's users do; throws unless it was acknowledged. */
  act: () => Promise<void>;
  /** What the fresh read shows; writes no public page shows are checked by the read being rendered afresh. */
  shows?: (body: string) => void;
}

const acknowledged = (answer: Answer, ...statuses: number[]) => expect(statuses, answer.body.slice(0, 300)).toContain(answer.status);

const WRITES: WriteCase[] = [
  {
    write: "a memory approved through the API",
    read: "/guestbook",
    prepare: async () => void (made.apiMemory.id = await pendingMemory(made.apiMemory.message)),
    act: async () => acknowledged(await asAdmin("PATCH", `/api/admin/memories/${made.apiMemory.id}`, { status: "APPROVED" }), 200),
    shows: (body) => expect(body).toContain(made.apiMemory.message),
  },
  {
    write: "a memory approved from the admin panel's form",
    read: "/api/guestbook",
    prepare: async () => void (made.formMemory.id = await pendingMemory(made.formMemory.message)),
    act: async () => acknowledged(await postForm("/admin?index", { intent: "approve", id: String(made.formMemory.id) }), 302),
    shows: (body) => expect(body).toContain(made.formMemory.message),
  },
  {
    write: "a memory rejected through the API",
    read: "/guestbook",
    act: async () => acknowledged(await asAdmin("PATCH", `/api/admin/memories/${made.apiMemory.id}`, { status: "REJECTED" }), 200),
    shows: (body) => expect(body).not.toContain(made.apiMemory.message),
  },
  {
    write: "a memory rejected from the form, once confirmed",
    read: "/api/guestbook",
    act: async () =>
      acknowledged(await postForm("/admin?index", { intent: "reject", id: String(made.formMemory.id), confirmed: "yes" }), 302),
    shows: (body) => expect(body).not.toContain(made.formMemory.message),
  },
  {
    write: "a memory sent by a visitor (waiting for review)",
    read: "/guestbook",
    act: async () => void (await pendingMemory(unique("Not published yet"))),
    shows: (body) => expect(body).not.toContain("Not published yet"),
  },
  {
    write: "a photo published through the API",
    read: "/gallery",
    prepare: async () => void (made.apiPhoto = await pendingPhoto("api.jpg")),
    act: async () => acknowledged(await asAdmin("PATCH", `/api/admin/uploads/${made.apiPhoto}`, { status: "APPROVED" }), 200),
    shows: (body) => expect(body).toContain(`/media/${made.apiPhoto}/`),
  },
  {
    write: "a photo published from the admin panel's form",
    read: "/api/gallery",
    prepare: async () => void (made.formPhoto = await pendingPhoto("form.jpg")),
    act: async () => acknowledged(await postForm("/admin/uploads", { intent: "approve", id: String(made.formPhoto) }), 302),
    shows: (body) => expect(body).toContain(`/media/${made.formPhoto}/`),
  },
  {
    write: "a photo rotated",
    read: "/api/gallery",
    act: async () => {
      const answer = await asAdmin("POST", `/api/admin/uploads/${made.apiPhoto}/rotate`, { direction: "right" });
      acknowledged(answer, 200);
      rotatedUrl = json<{ newUrl: string }>(answer).newUrl;
    },
    shows: (body) => expect(body).toContain(rotatedUrl),
  },
  {
    write: "a photo rejected through the API",
    read: "/gallery",
    act: async () => acknowledged(await asAdmin("PATCH", `/api/admin/uploads/${made.apiPhoto}`, { status: "REJECTED" }), 200),
    shows: (body) => expect(body).not.toContain(`/media/${made.apiPhoto}/`),
  },
  {
    write: "an upload deleted from the form, once confirmed",
    read: "/api/gallery",
    act: async () =>
      acknowledged(await postForm("/admin/uploads", { intent: "reject", id: String(made.formPhoto), confirmed: "yes" }), 302),
    shows: (body) => expect(body).not.toContain(`/media/${made.formPhoto}/`),
  },
  {
    write: "a published memory unpublished from the Published tab's form",
    read: "/guestbook",
    prepare: async () => {
      made.published.memory = await pendingMemory(made.published.message);
      acknowledged(await asAdmin("PATCH", `/api/admin/memories/${made.published.memory}`, { status: "APPROVED" }), 200);
      expect((await visit("/guestbook")).body).toContain(made.published.message);
    },
    act: async () =>
      acknowledged(await postForm("/admin/published/memories", { intent: "unpublish", id: String(made.published.memory) }), 302),
    shows: (body) => expect(body).not.toContain(made.published.message),
  },
  {
    write: "a memory published again through the API",
    read: "/api/guestbook",
    act: async () => acknowledged(await asAdmin("PATCH", `/api/admin/memories/${made.published.memory}`, { status: "APPROVED" }), 200),
    shows: (body) => expect(body).toContain(made.published.message),
  },
  {
    write: "a published memory corrected from the Edit form",
    read: "/guestbook",
    act: async () =>
      acknowledged(
        await postForm(`/admin/published/memories/${made.published.memory}/edit`, {
          name: "Cousin Ellen",
          message: made.published.corrected,
        }),
        302,
      ),
    shows: (body) => expect(body).toContain(made.published.corrected),
  },
  {
    write: "a published memory deleted, once confirmed",
    read: "/api/guestbook",
    act: async () => acknowledged(await postForm(`/admin/published/memories/${made.published.memory}/delete`, { intent: "delete" }), 302),
    shows: (body) => expect(body).not.toContain(made.published.corrected),
  },
  {
    write: "a published photo unpublished through the API",
    read: "/gallery",
    prepare: async () => {
      made.published.photo = await pendingPhoto("published.jpg");
      acknowledged(await asAdmin("PATCH", `/api/admin/uploads/${made.published.photo}`, { status: "APPROVED" }), 200);
      expect((await visit("/gallery")).body).toContain(`/media/${made.published.photo}/`);
    },
    act: async () => acknowledged(await asAdmin("PATCH", `/api/admin/uploads/${made.published.photo}`, { status: "HIDDEN" }), 200),
    shows: (body) => expect(body).not.toContain(`/media/${made.published.photo}/`),
  },
  {
    write: "a photo published again from the Published tab's form",
    read: "/api/gallery",
    act: async () => acknowledged(await postForm("/admin/published/uploads", { intent: "publish", id: String(made.published.photo) }), 302),
    shows: (body) => expect(body).toContain(`/media/${made.published.photo}/`),
  },
  {
    write: "a published photo deleted through the API",
    read: "/gallery",
    act: async () => acknowledged(await asAdmin("DELETE", `/api/admin/uploads/${made.published.photo}`), 204),
    shows: (body) => expect(body).not.toContain(`/media/${made.published.photo}/`),
  },
  {
    write: "a file stored at a signed address (not yet completed)",
    read: "/",
    act: async () => void (await storePhoto()),
  },
  {
    write: "a poem added through the API",
    read: "/poems",
    act: async () => {
      const answer = await asAdmin("POST", "/api/admin/poems", { title: made.poem.title, content: "Lines kept for the cache test." });
      acknowledged(answer, 201);
      made.poem.id = json<{ id: number }>(answer).id;
    },
    shows: (body) => expect(body).toContain(made.poem.title),
  },
  {
    write: "a poem added from the admin panel's form",
    read: "/api/poems",
    act: async () =>
      acknowledged(await postForm("/admin/poems", { intent: "create", title: made.formPoemTitle, content: "More lines." }), 302),
    shows: (body) => expect(body).toContain(made.formPoemTitle),
  },
  {
    write: "a poem deleted through the API",
    read: "/poems",
    act: async () => acknowledged(await asAdmin("DELETE", `/api/admin/poems/${made.poem.id}`), 204),
    shows: (body) => expect(body).not.toContain(made.poem.title),
  },
  {
    write: "a poem deleted from the form",
    read: "/api/poems",
    act: async () => {
      const poems = json<{ id: number; title: string }[]>(await visit("/api/poems"));
      const id = poems.find((poem) => poem.title === made.formPoemTitle)!.id;
      // Deleting asks first; the question's own form deletes.
      acknowledged(await postForm(`/admin/poems/${id}/delete`, { intent: "delete" }), 302);
    },
    shows: (body) => expect(body).not.toContain(made.formPoemTitle),
  },
  {
    write: "a setting changed through the API",
    read: "/",
    act: async () => acknowledged(await asAdmin("PATCH", "/api/admin/settings", { personName: "Rosa Cachemire" }), 200),
    shows: (body) => expect(body).toContain("Rosa Cachemire"),
  },
  {
    write: "a setting changed from the Site tab's form",
    read: "/gallery",
    act: async () =>
      acknowledged(
        await postForm("/admin/site", { section: "contact", contactEmail: "cache-family@example.com", privacyNote: "Kept private." }),
        302,
      ),
    shows: (body) => expect(body).toContain("cache-family@example.com"),
  },
  {
    write: "the memorial made unlisted",
    read: "/",
    act: async () => acknowledged(await asAdmin("PATCH", "/api/admin/settings", { visibility: "unlisted" }), 200),
    shows: (body) => expect(body).toContain('<meta name="robots" content="noindex, nofollow"/>'),
  },
  {
    write: "the memorial made public again",
    read: "/",
    act: async () => acknowledged(await asAdmin("PATCH", "/api/admin/settings", { visibility: "public" }), 200),
    shows: (body) => expect(body).not.toContain('<meta name="robots"'),
  },
  {
    write: "the hero photo replaced",
    read: "/",
    act: async () =>
      acknowledged(
        await postMultipart("/admin/site/hero", {
          heroImageAlt: "The family's photo",
          photo: { bytes: await photo("#359"), name: "hero.jpg", type: "image/jpeg" },
        }),
        302,
      ),
    shows: (body) => expect(body).toMatch(/src="\/media\/site\/hero-[\w-]+\.jpg"/),
  },
  {
    write: "the Karen Mode song replaced",
    read: "/",
    act: async () =>
      acknowledged(
        await postMultipart("/admin/site/song", { title: "Party", song: { bytes: BUNDLED_SONG, name: "party.mp3", type: "audio/mpeg" } }),
        302,
      ),
    shows: (body) => expect(body).toMatch(/\/media\/site\/song-[\w-]+\.mp3/),
  },
  {
    write: "an attendance note (RSVP)",
    read: "/",
    act: async () =>
      acknowledged(await postJson(site.port, "/api/rsvp", { name: "Guest", email: "guest@example.com", guestCount: 2 }), 201),
  },
  {
    write: "a family admin added",
    read: "/",
    act: async () =>
      acknowledged(
        await asAdmin("POST", "/api/admin/admins", { username: unique("cousin").replace(" ", "-"), password: "another long one" }),
        201,
      ),
  },
  {
    write: "a memory approved by another process on the same database file",
    read: "/guestbook",
    act: async () => {
      const other = new Database(path.join(site.dir, "memorial.db"));
      try {
        other
          .prepare("insert into memories (name, email, message, status, canDisplay) values (?, ?, ?, 'APPROVED', 1)")
          .run("Elsewhere", "elsewhere@example.com", "Written by another process.");
      } finally {
        other.close();
      }
    },
    shows: (body) => expect(body).toContain("Written by another process."),
  },
];
let rotatedUrl = "";

describe("every kind of write makes the next anonymous read fresh", () => {
  it.each(WRITES)("$write → $read", async ({ read, prepare, act, shows }) => {
    await prepare?.();
    await warm(read);
    await act();
    const after = await visit(read);
    expect(after.status).toBe(200);
    expect(after.headers["x-render-cache"], "rendered afresh after the write").toBe("miss");
    shows?.(after.body);
    expect((await visit(read)).headers["x-render-cache"], "and kept again").toBe("hit");
  });
});

describe("what is never served from the cache", () => {
  it("an administrator's pages: rendered each time, with a nonce of their own", async () => {
    await warm("/");
    const nonces = [];
    for (let i = 0; i < 2; i++) {
      const page = await visit("/", { Cookie: admin });
      expect(page.status).toBe(200);
      expect(page.headers["x-render-cache"]).toBeUndefined();
      expect(page.headers["cache-control"] ?? "").not.toMatch(/public/);
      const nonce = /'nonce-([^']+)'/.exec(String(page.headers["content-security-policy"]))?.[1];
      expect(nonce).toBeTruthy();
      // Every script but the JSON-LD data block (the schema.org Person), which no browser runs.
      for (const tag of page.body.match(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>/g) ?? [])
        expect(tag).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
    const panel = await visit("/admin", { Cookie: admin });
    expect(panel.headers["x-render-cache"]).toBeUndefined();
    expect(panel.headers["cache-control"]).toBe("private, no-store");
  });

  it("a flash message, and the form's answer it follows", async () => {
    await warm("/guestbook");
    const refused = await postForm("/guestbook", { name: "", email: "not an email", message: "short" }, "");
    expect(refused.status).toBe(400);
    expect(refused.headers["x-render-cache"]).toBeUndefined();
    const next = await visit("/guestbook");
    expect(next.headers["x-render-cache"]).toBe("hit");
    // Not beside a field (the words themselves are in the page's data, with the rest of the guest book's words).
    expect(next.body).not.toContain("Message must be at least 10 characters</li>");

    const sent = await postForm(
      "/guestbook",
      { name: "Flash", email: "flash@example.com", message: "A memory that earns a thank-you.", canDisplay: "on" },
      "",
    );
    expect(sent.status).toBe(302);
    const toast = cookieOf(sent);
    expect(toast).toMatch(/^__toast=/);
    const thanked = await visit("/guestbook", { Cookie: toast });
    expect(thanked.headers["x-render-cache"]).toBeUndefined();
    // The toast itself (the words alone are in every guest book page's data).
    const flash = '"title":"Memory Submitted"';
    expect(thanked.body).toContain(flash);
    const anyone = await visit("/guestbook");
    expect(anyone.body).not.toContain(flash);
  });

  it("a private memorial's passcode page, and its pages for visitors without the passcode", async () => {
    const passcode = "Blue Heron";
    acknowledged(await asAdmin("PATCH", "/api/admin/settings", { visibility: "private", visitorPasscode: passcode }), 200);
    try {
      for (let i = 0; i < 2; i++) {
        const locked = await visit("/", { Accept: "text/html" });
        expect(locked.status).toBe(401);
        expect(locked.headers["x-render-cache"]).toBeUndefined();
        expect(locked.body).toContain('name="passcode"');
      }
      const given = await postForm("/passcode", { passcode, redirectTo: "/" }, "");
      expect(given.status).toBe(302);
      const pass = cookieOf(given);
      const first = await visit("/", { Cookie: pass });
      const second = await visit("/", { Cookie: pass });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.headers["x-render-cache"]).toBe("hit");
      // Only the visitor's own browser may keep a private memorial's page.
      expect(second.headers["cache-control"]).toBe("private, no-cache");
      const stranger = await visit("/", { Accept: "text/html" });
      expect(stranger.status).toBe(401);
      expect(stranger.body).not.toContain("Memorial Service");
    } finally {
      acknowledged(await asAdmin("PATCH", "/api/admin/settings", { visibility: "public" }), 200);
    }
  });
});

describe("the cached answer", () => {
  it("is a 304 for a browser that has it, until something changes", async () => {
    const page = await warm("/poems");
    const etag = page.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    // Without PUBLIC_URL only the browser keeps it (tests/integration/request-pipeline-http.test.ts has the shared caching with it).
    expect(page.headers["cache-control"]).toBe("private, no-cache");
    expect(page.headers["cdn-cache-control"]).toBeUndefined();
    expect(page.headers.vary).toBe("Accept-Encoding, Accept-Language, Cookie");
    const again = await visit("/poems", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    acknowledged(await asAdmin("POST", "/api/admin/poems", { title: "A new poem", content: "Changes the page." }), 201);
    const changed = await visit("/poems", { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it("of an unlisted memorial keeps search engines away and shared caches out", async () => {
    acknowledged(await asAdmin("PATCH", "/api/admin/settings", { visibility: "unlisted" }), 200);
    try {
      for (const address of ["/", "/api/poems"]) {
        const copy = await warm(address);
        expect(copy.headers["x-robots-tag"], address).toBe("noindex, nofollow");
      }
      expect((await visit("/")).headers["cache-control"]).toBe("private, no-cache");
    } finally {
      acknowledged(await asAdmin("PATCH", "/api/admin/settings", { visibility: "public" }), 200);
    }
    expect((await visit("/")).headers["x-robots-tag"]).toBeUndefined();
  });

  it("keeps the form pages' no-store, and is sent compressed as the browser accepts", async () => {
    const guestbook = await warm("/guestbook");
    expect(guestbook.headers["cache-control"]).toBe("no-store");
    for (const encoding of ["br", "gzip"]) {
      const answer = await visit("/guestbook", { "Accept-Encoding": encoding });
      expect(answer.headers["content-encoding"]).toBe(encoding);
    }
  });

  it("allows exactly its own inline scripts, by hash, with no nonce and nothing unsafe", async () => {
    const page = await warm("/gallery");
    const csp = String(page.headers["content-security-policy"]);
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1]?.split(" ") ?? [];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc.some((source) => source.startsWith("'nonce-"))).toBe(false);
    const inline = [...page.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline.length).toBeGreaterThan(0);
    const hashes = inline.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`);
    expect(scriptSrc.filter((source) => source.startsWith("'sha256-")).sort()).toEqual([...new Set(hashes)].sort());
  });

  it("is kept apart for Karen Mode and for text browsers", async () => {
    const on = await postForm("/karen-mode", { enabled: "on", redirectTo: "/" }, "");
    const karen = cookieOf(on);
    await visit("/", { Cookie: karen });
    const party = await visit("/", { Cookie: karen });
    expect(party.headers["x-render-cache"]).toBe("hit");
    expect(party.body).toContain('data-karen="on"');
    expect((await visit("/")).body).not.toContain('data-karen="on"');
    const lynx = { "User-Agent": "Lynx/2.9.0 libwww-FM/2.14" };
    await visit("/", lynx);
    const text = await visit("/", lynx);
    expect(text.headers["x-render-cache"]).toBe("hit");
    expect(text.body).toContain('"textBrowser":true');
    expect((await visit("/")).body).toContain('"textBrowser":false');
  });
});
