// Methods an address does not take, and addresses the API does not have,
// against the production server: always a 4xx in the API's error shape,
// never Remix's bare "Unexpected Server Error".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, request, requireBuild, scratchDir, startSite, type Answer, type Site } from "../support/site-process";

const ADMIN = { username: "keeper", password: "methods-test-password" };
const JSON_BODY = { body: "{}", headers: { "Content-Type": "application/json" } };

/** Addresses that only answer GET: the public ones, then the administrator's. */
const PUBLIC_READS = [
  "/api/gallery",
  "/api/poems",
  "/api/slideshow",
  "/healthz",
  "/robots.txt",
  "/service.ics",
  "/qr/home.svg",
  "/media/1/web.jpg",
  "/media/site/hero.jpg",
  "/admin/exports/archive.zip",
];
const ADMIN_READS = [
  "/api/admin/pending-memories",
  "/api/admin/pending-uploads",
  "/api/admin/pending-candles",
  "/api/admin/rsvps/stats",
  "/api/admin/export/memories.csv",
  "/api/admin/export/contacts.csv",
  "/api/admin/export/followers.csv",
  "/api/admin/followers",
  "/api/admin/published-memories",
  "/api/admin/published-uploads",
];

let site: Site;
let adminCookie: string;

beforeAll(async () => {
  requireBuild();
  site = await startSite(scratchDir(), { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  for (let i = 0; ; i++) {
    // The configured admin is made just after the server starts listening.
    const login = await postJson(site.port, "/api/admin/login", ADMIN);
    if (login.status === 200 || i > 40) {
      expect(login.status, login.body).toBe(200);
      adminCookie = (login.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 90_000);

afterAll(() => site?.stop());

function expectMethodNotAllowed(answer: Answer, what: string) {
  expect(answer.status, what).toBe(405);
  expect(answer.headers.allow, what).toBe("GET");
  expect(JSON.parse(answer.body), what).toEqual({ errors: { method: ["Use GET here"] } });
}

describe("a method an address does not take", () => {
  it("is a 405 naming GET in the API's error shape, on every address that only answers GET", async () => {
    for (const path of [...PUBLIC_READS, ...ADMIN_READS]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        expectMethodNotAllowed(
          await request(site.port, method, path, { ...JSON_BODY, headers: { ...JSON_BODY.headers, Cookie: adminCookie } }),
          `${method} ${path}`,
        );
      }
    }
  });

  it("on the administrator's addresses, is a 401 first without a session, as every /api/admin answer is", async () => {
    for (const path of ADMIN_READS) {
      const answer = await request(site.port, "POST", path, JSON_BODY);
      expect(answer.status, path).toBe(401);
      expect(Object.keys(JSON.parse(answer.body).errors), path).toEqual(["session"]);
    }
  });

  it("on a memory or an upload, is a 405 naming GET, PATCH and DELETE", async () => {
    for (const path of ["/api/admin/memories/1", "/api/admin/uploads/1"]) {
      const answer = await request(site.port, "PUT", path, { ...JSON_BODY, headers: { ...JSON_BODY.headers, Cookie: adminCookie } });
      expect(answer.status, path).toBe(405);
      expect(answer.headers.allow, path).toBe("GET, PATCH, DELETE");
    }
  });

  it("changes nothing and leaves GET answering as before", async () => {
    expect((await request(site.port, "GET", "/api/poems")).status).toBe(200);
    expect((await request(site.port, "GET", "/healthz")).body).toBe("ok");
  });
});

describe("an address the API does not have", () => {
  it("is a 404 in the API's error shape, whatever the method", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const answer = await request(site.port, method, "/api/no-such-thing", method === "GET" ? {} : JSON_BODY);
      expect(answer.status, method).toBe(404);
      expect(JSON.parse(answer.body), method).toEqual({ errors: { path: ["There is nothing at this address in the API"] } });
    }
  });
});
