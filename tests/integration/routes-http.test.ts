// Every route answers as it did before the server became one Express
// pipeline (docs/decisions/019-one-request-pipeline.md): the status, the type
// and what the answer says, for a visitor and for the administrator, with the
// render cache on and off, and refused forms still refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCrowd } from "../../bench/lib.mjs";
import { adminCookieFor, request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";

const ADMIN = { username: "keeper", password: "every-route-test-password" };

/** The address, its status, its type and a text its answer holds. */
type Expected = [string, number, string, string];

const VISITOR_ANSWERS: Expected[] = [
  ["/", 200, "text/html", "In Loving Memory of Our Beloved Friend"],
  ["/guestbook", 200, "text/html", "Guest Book"],
  ["/guestbook?offset=10", 200, "text/html", "Guest Book"],
  ["/guestbook?limit=5&offset=3", 200, "text/html", "Guest Book"],
  ["/gallery", 200, "text/html", "Memory Gallery"],
  ["/gallery?type=video", 200, "text/html", "Memory Gallery"],
  ["/gallery/1", 200, "text/html", "photo-1.jpg"],
  ["/gallery/99999", 404, "text/html", "404 Page Not Found"],
  ["/poems", 200, "text/html", "Poems &amp; Writings"],
  ["/rsvp", 200, "text/html", "Memorial Service Attendance"],
  ["/share", 200, "text/html", "Share Photos &amp; Videos"],
  ["/voices", 200, "text/html", "Leave a voice memory"],
  ["/voices/99999", 404, "text/html", "404 Page Not Found"],
  ["/slideshow", 200, "text/html", "Slideshow"],
  ["/passcode", 302, "", ""],
  ["/admin/login", 200, "text/html", "Admin"],
  ["/admin/setup", 302, "", ""],
  ["/admin/invite/not-a-token", 404, "text/html", "Invitation"],
  ["/no-such-page", 404, "text/html", "404 Page Not Found"],
  ["/no/such/page/at/all", 404, "text/html", "404 Page Not Found"],
  ["/GuestBook", 200, "text/html", "Guest Book"],
  ["/guestbook/", 200, "text/html", "Guest Book"],
  ["/guestbook?_data=routes/guestbook", 200, "application/json", '{"memories":[{"id":40,"name":"Guest 39",'],
  ["/guestbook?_data=root", 200, "application/json", '{"origin":"http://memorial.test","site":'],
  ["/gallery/1?_data=routes/gallery_.$id", 200, "application/json", '{"item":{"id":1,"type":"IMAGE","url":"/m'],
  ["/poems?_data=routes/guestbook", 403, "application/json", '{"message":"Unexpected Server Error"}'],
  // The home page's loader gives the life story's first sentence for link previews (none here).
  ["/?index&_data=routes/_index", 200, "application/json", '{"lifeStory":false,"storyOpening":"","person":{"lifeDates":null,'],
  ["/api/guestbook", 200, "application/json", '[{"id":40,"name":"Guest 39","message":"A'],
  ["/api/guestbook?limit=3&offset=2", 200, "application/json", '[{"id":38,"name":"Guest 37","message":"A'],
  ["/api/gallery?type=photo", 400, "application/json", '{"errors":{"type":["type must be IMAGE, VIDEO or AUDIO'],
  ["/api/poems", 200, "application/json", "[]"],
  ["/api/slideshow", 200, "application/json", '{"items":[{"id":30,"type":"VIDEO","image'],
  ["/api/no-such-thing", 404, "application/json", '{"errors":{"path":["There is nothing at '],
  ["/api/admin/pending-memories", 401, "application/json", '{"errors":{"session":["Log in as the adm'],
  ["/media/1/nope.jpg", 404, "text/plain", "This photo or video is not available."],
  ["/robots.txt", 200, "text/plain", "User-agent: *"],
  ["/service.ics", 200, "text/calendar", "BEGIN:VCALENDAR"],
  ["/healthz", 200, "text/plain", "ok"],
];

const ADMIN_ANSWERS: Expected[] = [
  ["/admin", 200, "text/html", "Admin"],
  ["/admin?tab=uploads", 200, "text/html", "Admin"],
  ["/admin/memories/1", 200, "text/html", "Admin"],
  ["/admin/memories/424242", 404, "text/html", "404 Page Not Found"],
  ["/admin/uploads", 200, "text/html", "Admin"],
  ["/admin/uploads/1", 200, "text/html", "Admin"],
  ["/admin/poems", 200, "text/html", "Admin"],
  ["/admin/site", 200, "text/html", "Site settings"],
  ["/admin/site/hero", 200, "text/html", "Hero photo"],
  ["/admin/site/song", 200, "text/html", "Karen Mode song"],
  ["/admin/attendance", 200, "text/html", "Admin"],
  ["/admin/exports", 200, "text/html", "Admin"],
  ["/admin/admins", 200, "text/html", "Family admins"],
  ["/admin/print", 200, "text/html", "Admin"],
  ["/admin/no-such-tab", 404, "text/html", "404 Page Not Found"],
  ["/admin?_data=routes/admin", 200, "application/json", '{"admin":{"username":"keeper","role":"family"},"counts":'],
  ["/api/admin/pending-memories", 200, "application/json", '[{"id":41,"name":"Late guest 1","email":'],
  ["/api/admin/rsvps/stats", 200, "application/json", '{"totalRsvps":0,"totalGuests":0,"rsvps":'],
  ["/guestbook", 200, "text/html", "Guest Book"],
];

let cached: Site;
let uncached: Site;
let adminCookie: string;

beforeAll(async () => {
  requireBuild();
  const dir = scratchDir();
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
  cached = await startSite(dir, env);
  uncached = await startSite(dir, { ...env, RENDER_CACHE: "off" });
  // The seeded uploads look processed (bench/lib.mjs), so neither server's start takes them up again.
  seedCrowd(dir, { memories: 40, uploads: 30, pending: 3 });
  adminCookie = await adminCookieFor(cached, ADMIN);
}, 90_000);

afterAll(async () => {
  await cached?.stop();
  await uncached?.stop();
});

async function expectAnswers(site: Site, table: Expected[], headers: Record<string, string> = {}) {
  for (const [path, status, type, text] of table) {
    // Twice: the second of a cached page comes from the copy.
    for (const time of [1, 2]) {
      const answer = await request(site.port, "GET", path, { headers: { Host: "memorial.test", ...headers } });
      expect(answer.status, `${path} (${time})`).toBe(status);
      expect((answer.headers["content-type"] ?? "").split(";")[0], path).toBe(type);
      expect(answer.body, path).toContain(text);
    }
  }
}

describe("every route answers as before", () => {
  for (const [name, site] of [
    ["with the render cache", () => cached],
    ["without the render cache", () => uncached],
  ] as const) {
    it(`for a visitor, on every kind of page and API read, ${name}`, () => expectAnswers(site(), VISITOR_ANSWERS));
    it(`for the administrator, on every admin page, ${name}`, () => expectAnswers(site(), ADMIN_ANSWERS, { Cookie: adminCookie }));
  }

  it("refuses a form with nothing in it, and a method a page does not take", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded", Host: "memorial.test" };
    for (const path of ["/guestbook", "/rsvp", "/admin/login", "/guestbook?index"]) {
      const answer = await request(cached.port, "POST", path, { body: "name=&message=", headers: form });
      expect(answer.status, path).toBe(400);
    }
    expect((await request(cached.port, "POST", "/gallery", { body: "x=1", headers: form })).status).toBe(405);
    // A method the guest book does not take, without a form: refused for its missing form, as before.
    expect((await request(cached.port, "DELETE", "/guestbook", { headers: { Host: "memorial.test" } })).status).toBe(415);
  });

  it("sends a page compressed when the browser accepts it", async () => {
    for (const site of [cached, uncached]) {
      for (const path of ["/", "/guestbook", "/no-such-page", "/admin/login"]) {
        const zipped = await fetch(`http://127.0.0.1:${site.port}${path}`, { headers: { "Accept-Encoding": "gzip" } });
        expect(zipped.headers.get("content-encoding"), path).toBe("gzip");
        expect(await zipped.text(), path).toContain("</html>");
      }
    }
  });
});
