// The hero photo and Karen Mode song forms against the real production
// server: only the administrator, only from the site itself, bounded in
// size (a clear refusal, never a 500), and on a full disk the storage-full
// message with the photo before kept.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTO_TOO_LARGE, SONG_NOT_MP3, SONG_TOO_LARGE } from "~/site/site-media.schema";
import { STORAGE_FULL } from "~/platform/refusal.server";
import { postJson, request, requireBuild, scratchDir, startSite, type Answer, type Site } from "../support/site-process";
import { fillDisk, mountSmallDisk } from "../support/small-disk";

const ADMIN = { username: "family", password: "site-media-test-password" };
const ENV = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
const BUNDLED_SONG = readFileSync(path.resolve(__dirname, "../../public/audio/karen-mode.mp3"));

/** HTML escapes quotes in text; the messages are compared as the page shows them. */
const html = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

const cookieOf = (answer: Answer) => (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]).join("; ");

async function logIn(port: number) {
  // The configured administrator is created just after the server starts listening.
  let login = await postJson(port, "/api/admin/login", ADMIN);
  for (let attempt = 0; login.status === 401 && attempt < 50; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    login = await postJson(port, "/api/admin/login", ADMIN);
  }
  expect(login.status, login.body).toBe(200);
  return cookieOf(login);
}

/** A multipart body exactly as a browser makes it, with its Content-Type. */
async function multipart(fields: Record<string, string | { bytes: Buffer; name: string; type: string }>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.name);
  }
  const encoded = new Request("http://localhost/", { method: "POST", body: form });
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get("Content-Type")! };
}

async function post(port: number, urlPath: string, fields: Parameters<typeof multipart>[0], headers: Record<string, string> = {}) {
  const { body, type } = await multipart(fields);
  return request(port, "POST", urlPath, { body, headers: { "Content-Type": type, ...headers } });
}

const photo = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** The home page's hero `<picture>`. */
async function heroPicture(port: number) {
  const page = await request(port, "GET", "/");
  expect(page.status).toBe(200);
  return /<picture>.*?<\/picture>/.exec(page.body)?.[0] ?? "";
}

describe("the forms on the production server", () => {
  let site: Site;
  let admin: string;

  beforeAll(async () => {
    requireBuild();
    site = await startSite(scratchDir(), ENV);
    admin = await logIn(site.port);
  });
  afterAll(async () => {
    await site?.stop();
  });

  it("without the administrator's session go to the login page and change nothing", async () => {
    const { port } = site;
    const fields = { heroImageAlt: "Stranger", photo: { bytes: await photo(800, 500, "#f00"), name: "x.jpg", type: "image/jpeg" } };
    for (const address of ["/admin/site/hero", "/admin/site/song"]) {
      const answer = await post(port, address, fields);
      expect(answer.status, address).toBe(302);
      expect(answer.headers.location).toBe(`/admin/login?redirectTo=${encodeURIComponent(address)}`);
      const reset = await request(port, "POST", address, {
        body: "intent=reset",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(reset.status).toBe(302);
      expect(reset.headers.location).toMatch(/^\/admin\/login/);
    }
    for (const address of ["/admin/site/hero", "/admin/site/song"]) {
      expect((await request(port, "GET", address)).headers.location, address).toMatch(/^\/admin\/login\?redirectTo=/);
    }
    expect(await heroPicture(port)).toContain('src="/images/hero.jpg"');
  });

  it("from another site's page are refused with 403, even with the session", async () => {
    const answer = await post(
      site.port,
      "/admin/site/hero",
      { heroImageAlt: "Forged", photo: { bytes: await photo(800, 500, "#0f0"), name: "x.jpg", type: "image/jpeg" } },
      { Cookie: admin, Origin: "https://evil.example" },
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("This form must be sent from this website.");
    expect(await heroPicture(site.port)).toContain('src="/images/hero.jpg"');
  });

  it("refuse files over their limit with the reason on the page, never a 500", async () => {
    const { port } = site;
    const big = {
      bytes: Buffer.concat([await photo(100, 100, "#00f"), Buffer.alloc(26 * 1024 * 1024)]),
      name: "big.jpg",
      type: "image/jpeg",
    };
    const declared = await post(port, "/admin/site/hero", { heroImageAlt: "Too big", photo: big }, { Cookie: admin });
    expect(declared.status).toBe(413);
    expect(declared.body).toContain(html(PHOTO_TOO_LARGE));
    expect(declared.body).toContain('role="alert"');

    // Sent in chunks, without saying its length first.
    const { body, type } = await multipart({ heroImageAlt: "Chunked", photo: big });
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/admin/site/hero",
          agent: false,
          headers: { "Content-Type": type, Cookie: admin },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      // The server answers and stops reading once the file is over its limit: the rest of the
      // writes may then fail (EPIPE, ECONNRESET) while the answer is on its way, as a browser's do.
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
      });
      req.on("close", () => setTimeout(() => reject(new Error("the connection closed without an answer")), 5_000).unref());
      for (let at = 0; at < body.length; at += 1024 * 1024) req.write(body.subarray(at, at + 1024 * 1024));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toContain(html(PHOTO_TOO_LARGE));

    const song = await post(
      port,
      "/admin/site/song",
      { song: { bytes: Buffer.alloc(16 * 1024 * 1024), name: "long.mp3", type: "audio/mpeg" } },
      { Cookie: admin },
    );
    expect(song.status).toBe(413);
    expect(song.body).toContain(html(SONG_TOO_LARGE));
    expect(site.output()).not.toMatch(/"status":5\d\d/);
  });

  it("with the session: the photo and song are shown to visitors, served with their types, and reset", async () => {
    const { port } = site;
    const saved = await post(
      port,
      "/admin/site/hero",
      { heroImageAlt: "Dad on the boat", photo: { bytes: await photo(2000, 1250, "#4a7"), name: "boat.jpg", type: "image/jpeg" } },
      { Cookie: admin },
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe("/admin/site#hero-photo");
    expect(cookieOf(saved)).toMatch(/__toast=/);

    const picture = await heroPicture(port);
    expect(picture).toMatch(/<source type="image\/webp" srcSet="\/media\/site\/hero-640w-[\w-]+\.webp 640w, [^"]+ 1280w, [^"]+ 1920w"/);
    expect(picture).toMatch(/<img [^>]*src="\/media\/site\/hero-1280w-[\w-]+\.jpg" alt="Dad on the boat" width="1920" height="1200"/);
    const home = (await request(port, "GET", "/")).body;
    expect(home).toMatch(
      new RegExp(`<meta property="og:image" content="http://127\\.0\\.0\\.1:${port}/media/site/hero-1280w-[\\w-]+\\.jpg"`),
    );
    const src = /src="(\/media\/site\/[^"]+)"/.exec(picture)![1]!;
    const file = await request(port, "GET", src);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("image/jpeg");
    expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const party = await post(
      port,
      "/admin/site/song",
      { title: "Party", song: { bytes: BUNDLED_SONG, name: "party.mp3", type: "audio/mpeg" } },
      { Cookie: admin },
    );
    expect(party.status).toBe(302);
    expect(party.headers.location).toBe("/admin/site#karen-song");
    const footer = (await request(port, "GET", "/guestbook")).body;
    const mp3 = /<source src="(\/media\/site\/song-[\w-]+\.mp3)" type="audio\/mpeg"\/>/.exec(footer)?.[1];
    expect(mp3).toBeDefined();
    expect(footer).not.toContain("karen-mode.ogg");
    const range = await request(port, "GET", mp3!, { headers: { Range: "bytes=0-99" } });
    expect(range.status).toBe(206);
    expect(range.headers["content-type"]).toBe("audio/mpeg");
    expect(range.headers["content-range"]).toBe(`bytes 0-99/${BUNDLED_SONG.length}`);

    const notMp3 = await post(
      port,
      "/admin/site/song",
      { title: "A photo", song: { bytes: await photo(50, 50, "#000"), name: "fake.mp3", type: "audio/mpeg" } },
      { Cookie: admin },
    );
    expect(notMp3.status).toBe(415);
    expect(notMp3.body).toContain(html(SONG_NOT_MP3));
    // The form comes back with what was typed.
    expect(notMp3.body).toContain('value="A photo"');
    expect(notMp3.body).toContain('action="/admin/site/song"');

    for (const address of ["/admin/site/hero", "/admin/site/song"]) {
      const reset = await request(port, "POST", address, {
        body: "intent=reset",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: admin },
      });
      expect(reset.status, address).toBe(302);
    }
    expect(await heroPicture(port)).toContain('src="/images/hero.jpg"');
    expect((await request(port, "GET", src)).status).toBe(404);
    expect((await request(port, "GET", mp3!)).status).toBe(404);
    const unknown = await request(port, "POST", "/admin/site/hero", {
      body: "intent=explode",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: admin },
    });
    expect(unknown.status).toBe(400);
  });
});

// ---------------------------------------------------------------------------
// A full disk: a small tmpfs, filled to the last byte.

describe("a full disk", () => {
  const disk = mountSmallDisk(24);
  it.skipIf(!disk)("answers the storage-full message and keeps the photo before", async () => {
    const site = await startSite(disk!, { ...ENV, MIN_FREE_DISK_BYTES: "1MB" });
    try {
      const admin = await logIn(site.port);
      const first = await post(
        site.port,
        "/admin/site/hero",
        { heroImageAlt: "Before", photo: { bytes: await photo(1600, 1000, "#a47"), name: "a.jpg", type: "image/jpeg" } },
        { Cookie: admin },
      );
      expect(first.status).toBe(302);
      const before = await heroPicture(site.port);
      expect(before).toContain("/media/site/hero-");

      fillDisk(disk!);
      const refused = await post(
        site.port,
        "/admin/site/hero",
        { heroImageAlt: "After", photo: { bytes: await photo(1600, 1000, "#47a"), name: "b.jpg", type: "image/jpeg" } },
        { Cookie: admin },
      );
      expect(refused.status).toBe(507);
      expect(refused.body).toContain(html(STORAGE_FULL));
      expect(await heroPicture(site.port)).toBe(before);
      const src = /src="(\/media\/site\/[^"]+)"/.exec(before)![1]!;
      expect((await request(site.port, "GET", src)).status).toBe(200);
      const song = await post(
        site.port,
        "/admin/site/song",
        { song: { bytes: BUNDLED_SONG, name: "s.mp3", type: "audio/mpeg" } },
        { Cookie: admin },
      );
      expect(song.status).toBe(507);
    } finally {
      await site.stop();
    }
  });
});
