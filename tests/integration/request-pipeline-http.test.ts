// The server's pipeline against what an attacker sends (issue: security
// repairs from the second attack run): an address it cannot read is a 400
// and one warning line; an invitation's token never reaches the log; a page
// that names the request's host is kept by no shared cache unless the site's
// address is fixed; an answer for one person is kept by no cache at all.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookieFor, request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";

const ADMIN = { username: "family", password: "pipeline-test-password" };
const PUBLIC_URL = "https://memorial.example.org";

let site: Site;
let fixed: Site;
let admin: string;

beforeAll(async () => {
  requireBuild();
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
  site = await startSite(scratchDir(), env);
  fixed = await startSite(scratchDir(), { ...env, PUBLIC_URL });
  admin = await adminCookieFor(site, ADMIN);
}, 90_000);

afterAll(async () => {
  await site?.stop();
  await fixed?.stop();
});

/** A request written byte for byte, as no HTTP library would: its status line and the rest. */
function raw(port: number, head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on("error", reject);
  });
}

/** The server's output written since `from` (its length before). */
async function outputSince(server: Site, from: number) {
  // The log line is written once the answer is sent: give the process a moment to flush it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return server.output().slice(from);
}

describe("an address the server cannot read", () => {
  const unreadable = [
    ["GET /guestbook HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: , https", "X-Forwarded-Proto"],
    ["GET /guestbook HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Host: a b", "X-Forwarded-Host"],
    ["GET /guestbook HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Host: a:99999", "X-Forwarded-Host"],
    ["GET /guestbook HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Host: good.example, a:99999", "X-Forwarded-Host"],
    ["GET /guestbook HTTP/1.1\r\nHost: [", "Host"],
    ["GET http://evil.example/guestbook HTTP/1.1\r\nHost: localhost", "request target"],
    ["OPTIONS * HTTP/1.1\r\nHost: localhost", "request target"],
    ["POST /guestbook HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Host: a b\r\nContent-Length: 0", "X-Forwarded-Host"],
    ["GET /media/%E0%A4%A HTTP/1.1\r\nHost: localhost", "path"],
  ] as const;

  for (const [head, problem] of unreadable) {
    it(`is a 400 and one warning line, without a stack: ${head.replaceAll("\r\n", " | ")}`, async () => {
      const from = site.output().length;
      const answer = await raw(site.port, head);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.text).toContain("This address could not be read.");
      const output = await outputSince(site, from);
      const warnings = output.split("\n").filter((line) => line.includes('"level":"warn"'));
      expect(warnings, output).toHaveLength(1);
      expect(warnings[0]).toContain(problem);
      expect(output).not.toMatch(/\n\s+at /);
      expect(output).not.toContain('"level":"error"');
    });
  }

  it("is still read when it is well formed behind a proxy", async () => {
    const answer = await raw(
      site.port,
      "GET /guestbook HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https, http\r\nX-Forwarded-Host: memorial.example.net:8443",
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("https://memorial.example.net:8443/guestbook");
  });
});

describe("the request log", () => {
  it("never holds an invitation's token, however the address is written", async () => {
    const token = "Xq7secretInvitationToken0123456789";
    for (const address of [`/admin/invite/${token}`, `/ADMIN/Invite/${token}`, `/admin/%69nvite/${token}`, `//admin//invite/${token}`]) {
      const from = site.output().length;
      await request(site.port, "GET", address);
      const output = await outputSince(site, from);
      expect(output, address).toContain("[redacted]");
      expect(output, address).not.toContain(token);
    }
  });

  it("never holds an invitation's or unsubscribe link's token behind dot segments", async () => {
    const token = "Yr8secretTokenBehindDotSegments0123";
    for (const address of [
      `/./unsubscribe/${token}`,
      `/x/../admin/invite/${token}`,
      `/gallery/%2e%2e/unsubscribe/${token}`,
      `/a/b/../../ADMIN/./invite/${token}`,
      `/x/..\\unsubscribe/${token}`,
    ]) {
      const from = site.output().length;
      await request(site.port, "GET", address);
      const output = await outputSince(site, from);
      expect(output, address).toContain("[redacted]");
      expect(output, address).not.toContain(token);
    }
  });
});

describe("what caches may keep", () => {
  const ogUrl = (body: string) => /<meta property="og:url" content="([^"]*)"/.exec(body)?.[1];

  it("without PUBLIC_URL, a page naming the request's host is kept by no shared cache", async () => {
    for (const address of ["/", "/guestbook?_data=root", "/poems"]) {
      for (const time of [1, 2]) {
        const page = await request(site.port, "GET", address, { headers: { "X-Forwarded-Host": "evil.example" } });
        expect(page.status, address).toBe(200);
        expect(page.headers["cache-control"], `${address} (${time})`).not.toMatch(/public|s-maxage/);
        expect(page.headers["cdn-cache-control"], address).toBeUndefined();
      }
    }
  });

  it("with PUBLIC_URL, public pages name only that address and a shared cache may keep them briefly", async () => {
    for (const time of [1, 2]) {
      const page = await request(fixed.port, "GET", "/", { headers: { "X-Forwarded-Host": "evil.example" } });
      expect(page.headers["cache-control"], String(time)).toBe("public, max-age=0, s-maxage=5, stale-while-revalidate=30");
      expect(page.headers["cdn-cache-control"]).toBe("max-age=5, stale-while-revalidate=30");
      expect(ogUrl(page.body)).toBe(`${PUBLIC_URL}/`);
      expect(page.body).not.toContain("evil.example");
    }
    const data = await request(fixed.port, "GET", "/guestbook?_data=root", { headers: { "X-Forwarded-Host": "evil.example" } });
    expect(data.body).not.toContain("evil.example");
  });

  it("with PUBLIC_URL, a CDN may hold the guest book briefly while browsers fetch it afresh; never its answer to a form or a toast", async () => {
    for (const time of [1, 2]) {
      const page = await request(fixed.port, "GET", "/guestbook");
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"], String(time)).toBe("no-store");
      expect(page.headers["cdn-cache-control"], String(time)).toBe("max-age=5, stale-while-revalidate=30");
    }
    const form = (fields: Record<string, string>) => ({
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const refused = await request(fixed.port, "POST", "/guestbook", form({ name: "", email: "not an email", message: "short" }));
    expect(refused.status).toBe(400);
    expect(refused.headers["cdn-cache-control"]).toBeUndefined();
    const sent = await request(
      fixed.port,
      "POST",
      "/guestbook",
      form({ name: "Ada", email: "ada@example.com", message: "A memory that earns a thank-you.", canDisplay: "on" }),
    );
    expect(sent.status).toBe(302);
    const toast = [sent.headers["set-cookie"] ?? []]
      .flat()
      .map((cookie) => cookie.split(";")[0]!)
      .join("; ");
    const thanked = await request(fixed.port, "GET", "/guestbook", { headers: { Cookie: toast } });
    expect(thanked.body).toContain("Memory Submitted");
    expect(thanked.headers["cdn-cache-control"]).toBeUndefined();
    // Without a fixed address, no shared cache is told anything.
    expect((await request(site.port, "GET", "/guestbook")).headers["cdn-cache-control"]).toBeUndefined();
  });

  it("an answer for one person (an admin, a visitor with a cookie of their own) says private, no-store", async () => {
    for (const address of ["/", "/guestbook", "/gallery", "/admin", "/api/poems", "/?_data=root"]) {
      const asAdmin = await request(site.port, "GET", address, { headers: { Cookie: admin } });
      expect(asAdmin.headers["cache-control"], `admin ${address}`).toMatch(/private, no-store|^no-store$/);
      const withCookie = await request(site.port, "GET", address, { headers: { Cookie: "toast=something-of-mine" } });
      expect(withCookie.headers["cache-control"], `cookie ${address}`).toMatch(/private|no-store/);
      expect(withCookie.headers["cache-control"], `cookie ${address}`).not.toMatch(/public/);
    }
    for (const address of ["/", "/gallery", "/no-such-page"]) {
      const asAdmin = await request(site.port, "GET", address, { headers: { Cookie: admin } });
      expect(asAdmin.headers["cache-control"], address).toBe("private, no-store");
    }
  });
});
