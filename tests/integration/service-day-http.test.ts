// The service day's files from the production server (`node server/index.mjs`
// on the build): the calendar file and the QR codes, read back as a calendar
// program and a phone's camera would (node-ical; rsvg-convert renders the
// SVG to PNG and zbarimg decodes it), with and without PUBLIC_URL.
import { execFileSync } from "node:child_process";
import path from "node:path";
import ical, { type VEvent } from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteSettings } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { getServiceCalendar } from "~/site/service-calendar.server";
import { updateSiteSettings } from "~/site/settings.server";
import { request, requireBuild, startSite, type Site } from "../support/site-process";

const PUBLIC_URL = "https://memorial.example.org";

let site: Site;
let configured: Site;

beforeAll(async () => {
  requireBuild();
  db.delete(siteSettings).run();
  // Both servers share this process's database (tests/support/setup.ts): a setting changed here shows there.
  const dir = path.dirname(process.env.DATABASE_PATH!);
  site = await startSite(dir);
  configured = await startSite(dir, { PUBLIC_URL: `${PUBLIC_URL}/` });
}, 90_000);

afterAll(async () => {
  await Promise.all([site?.stop(), configured?.stop()]);
});

const get = (server: Site, urlPath: string, headers: Record<string, string> = {}) =>
  request(server.port, "GET", urlPath, { headers: { Accept: "*/*", ...headers } });

/** What a phone's camera reads in an SVG QR code, rendered to a 400 px PNG as a printer would. */
function scan(svg: string): string {
  const png = execFileSync("rsvg-convert", ["--format", "png", "--width", "400", "--background-color", "white"], { input: svg });
  return execFileSync("zbarimg", ["--raw", "-q", "-"], { input: png, stdio: ["pipe", "pipe", "ignore"] })
    .toString("utf8")
    .replace(/\n$/, "");
}

describe("QR codes at /qr/{guestbook|share|home}.svg", () => {
  it("scan back to the exact address of each page on the site's own origin, kept by this browser only", async () => {
    const origin = `http://127.0.0.1:${site.port}`;
    for (const [name, address] of [
      ["guestbook", `${origin}/guestbook`],
      ["share", `${origin}/share`],
      ["home", `${origin}/`],
    ] as const) {
      const answer = await get(site, `/qr/${name}.svg`);
      expect(answer.status, name).toBe(200);
      expect(answer.headers["content-type"], name).toBe("image/svg+xml");
      expect(answer.headers["cache-control"], name).toBe("private, max-age=300");
      expect(answer.body, name).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(scan(answer.body), name).toBe(address);
    }
  });

  it("with PUBLIC_URL, encode that origin whatever the request says it is, and may be kept by shared caches", async () => {
    const forged: Record<string, string>[] = [
      {},
      { Host: "evil.example" },
      { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http" },
    ];
    for (const headers of forged) {
      const answer = await get(configured, "/qr/share.svg", headers);
      expect(answer.status).toBe(200);
      expect(answer.headers["cache-control"]).toBe("public, max-age=300");
      expect(scan(answer.body), JSON.stringify(headers)).toBe(`${PUBLIC_URL}/share`);
    }
    expect(scan((await get(configured, "/qr/home.svg")).body)).toBe(`${PUBLIC_URL}/`);
  });

  it("answer 404 for any other name, and 400 (not a 500) when a made-up Host is too long to encode", async () => {
    for (const urlPath of ["/qr/gallery.svg", "/qr/guestbook.png", "/qr/guestbook", "/qr/GUESTBOOK.svg", "/qr/constructor.svg"]) {
      expect((await get(site, urlPath)).status, urlPath).toBe(404);
    }
    const long = await get(site, "/qr/home.svg", { Host: `${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.`.repeat(3) + "example" });
    expect(long.status).toBe(400);
  });
});

describe("GET /service.ics", () => {
  it("is a calendar file to download, the service read back by a calendar parser, the same event at every request", async () => {
    const changed = await updateSiteSettings(
      {
        personName: "Margaret Hale",
        serviceTitle: "Memorial Service",
        serviceStartsAt: "2026-03-29T11:00",
        serviceEndsAt: "2026-03-29T13:30",
        timeZone: "Europe/London",
        venueName: "St Mary's Church Hall",
        venueAddress: "12 Church Lane, Oxford OX1 4AA",
        livestreamUrl: "https://stream.example.com/margaret",
      },
      operator("test"),
    );
    expect(changed.ok).toBe(true);
    const answer = await get(site, "/service.ics");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(answer.headers["content-disposition"]).toBe('attachment; filename="memorial-service-for-margaret-hale.ics"');
    expect(answer.headers["cache-control"]).toBe("no-cache");
    expect(answer.body).toMatch(/^BEGIN:VCALENDAR\r\n/);

    const event = Object.values(ical.sync.parseICS(answer.body)).find((item): item is VEvent => item?.type === "VEVENT")!;
    expect(event.summary).toBe("Memorial Service for Margaret Hale");
    expect([event.start.toISOString(), event.end!.toISOString()]).toEqual(["2026-03-29T10:00:00.000Z", "2026-03-29T12:30:00.000Z"]);
    expect(event.location).toBe("St Mary's Church Hall, 12 Church Lane, Oxford OX1 4AA");
    expect(event.description).toContain("Watch the livestream: https://stream.example.com/margaret");
    expect(event.description).toContain(`http://127.0.0.1:${site.port}/`);
    expect(event.uid).toBe(`service@127.0.0.1:${site.port}`);

    // Another request, and another process (as after a restart), give the same UID.
    const again = Object.values(ical.sync.parseICS((await get(site, "/service.ics")).body)).find((item) => item?.type === "VEVENT")!;
    expect((again as VEvent).uid).toBe(event.uid);
    expect(getServiceCalendar(`http://127.0.0.1:${site.port}`).ics).toContain(`UID:${event.uid}\r\n`);

    // With PUBLIC_URL, the configured address, whatever the request says.
    const configuredEvent = Object.values(
      ical.sync.parseICS((await get(configured, "/service.ics", { "X-Forwarded-Host": "evil.example" })).body),
    ).find((item): item is VEvent => item?.type === "VEVENT")!;
    expect(configuredEvent.uid).toBe("service@memorial.example.org");
    expect(configuredEvent.url).toBe(`${PUBLIC_URL}/`);
    expect(configuredEvent.description).toContain(`${PUBLIC_URL}/`);
    expect(configuredEvent.description).not.toContain("evil.example");
  });
});

describe("link previews", () => {
  it("name the page on the site's public address when PUBLIC_URL is set, whatever host the request came to", async () => {
    const configuredHome = await get(configured, "/guestbook", { "X-Forwarded-Host": "evil.example" });
    expect(configuredHome.body).toContain(`<meta property="og:url" content="${PUBLIC_URL}/guestbook"/>`);
    expect(configuredHome.body).toMatch(new RegExp(`<meta property="og:image" content="${PUBLIC_URL.replace(/\./g, "\\.")}/`));
    expect(configuredHome.body).not.toContain("evil.example");

    const home = await get(site, "/guestbook");
    expect(home.body).toContain(`<meta property="og:url" content="http://127.0.0.1:${site.port}/guestbook"/>`);
  });
});
