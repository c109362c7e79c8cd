import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { adminUsers, memories, rsvps, sessions, uploads } from "../../db/schema";
import { MAX_FAILED_LOGINS, resetLoginThrottle, TOO_MANY_LOGINS } from "~/admins/authenticator.server";
import { hashPassword, scryptParamsFor, verifyPassword } from "~/admins/password.server";
import { endAdminSession, getAdmin, startAdminSession, sweepExpiredSessions } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { loginThroughApi as loginAdmin } from "../support/admin-login";
import { ensureConfiguredAdmin, upsertAdmin } from "~/admins/admin.server";
import { content } from "~/content";
import { approvedMemoryRows, contactRows, csvDate, csvStream, MEMORY_COLUMNS, neutraliseCell } from "~/keepsakes/csv.server";
import { parseSubmittedBy } from "~/utils/submitted-by";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { getRsvpStats } from "~/attendance/rsvp.server";
import { action as loginAction } from "~/routes/admin_.login";

beforeEach(() => {
  resetLoginThrottle();
  db.delete(sessions).run();
});

const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;
const withCookie = (cookie: string) => new Request("http://x/admin", { headers: { Cookie: cookie } });

describe("passwords", () => {
  it("are stored as salted scrypt hashes that only the right password opens", async () => {
    // Outside the tests new hashes cost N = 2^15, r = 8, p = 1, and say so.
    for (const nodeEnv of ["production", "development"] as const) expect(scryptParamsFor(nodeEnv)).toEqual({ N: 32768, r: 8, p: 1 });
    const hash = await hashPassword("correct horse battery", scryptParamsFor("production"));
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain("correct horse");
    expect(await hashPassword("correct horse battery", scryptParamsFor("production"))).not.toBe(hash);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batter", hash)).toBe(false);
    expect(await verifyPassword("anything", "plain-text")).toBe(false);
    // Under NODE_ENV=test (here) they cost less, and open the same way: a hash is checked with its own parameters.
    const cheaper = await hashPassword("correct horse battery");
    expect(cheaper).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword("correct horse battery", cheaper)).toBe(true);
    expect(await verifyPassword("correct horse batter", cheaper)).toBe(false);
  });

  it("the configured admin is made at start; a start never resets its password, the admin command does", async () => {
    await ensureConfiguredAdmin("family", "first-password");
    await ensureConfiguredAdmin("family", "first-password");
    expect(db.select().from(adminUsers).where(eq(adminUsers.username, "family")).all()).toHaveLength(1);
    await ensureConfiguredAdmin("family", "another-password");
    expect((await loginAdmin({ username: "family", password: "another-password" }, "10.0.0.1")).ok).toBe(false);
    expect((await loginAdmin({ username: "family", password: "first-password" }, "10.0.0.1")).ok).toBe(true);
    expect(await upsertAdmin("family", "second-password")).toEqual({ created: false });
    expect((await loginAdmin({ username: "family", password: "first-password" }, "10.0.0.1")).ok).toBe(false);
    expect((await loginAdmin({ username: "family", password: "second-password" }, "10.0.0.1")).ok).toBe(true);
    await expect(upsertAdmin("family", "short")).rejects.toThrow("at least 8 characters");
  });
});

describe("logging in", () => {
  beforeEach(async () => {
    await upsertAdmin("keeper", "the-right-password");
  });

  it("names missing fields, and says nothing about which part of a wrong login was wrong", async () => {
    expect(await loginAdmin({}, "10.0.0.2")).toEqual({
      ok: false,
      status: 400,
      errors: { username: ["Username is required"], password: ["Password is required"] },
    });
    const unknownUser = await loginAdmin({ username: "nobody", password: "the-right-password" }, "10.0.0.2");
    const wrongPassword = await loginAdmin({ username: "keeper", password: "wrong" }, "10.0.0.2");
    expect(unknownUser).toEqual(wrongPassword);
    expect(wrongPassword).toMatchObject({ status: 401, errors: { form: ["Invalid username or password."] } });
  });

  it("five failures for a username from one address never keep the right password out from another", async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect(await loginAdmin({ username: "keeper", password: "wrong" }, "10.1.0.1")).toMatchObject({ status: 401 });
    }
    const locked = await loginAdmin({ username: "keeper", password: "the-right-password" }, "10.1.0.1");
    expect(locked).toMatchObject({ ok: false, status: 429, errors: { form: [TOO_MANY_LOGINS] } });
    expect((locked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(800);
    expect((await loginAdmin({ username: "keeper", password: "the-right-password" }, "10.1.0.99")).ok).toBe(true);
  });

  it("locks an address out after five failures whatever usernames it tries", async () => {
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await loginAdmin({ username: `guess${i}`, password: "x" }, "10.2.0.1");
    expect(await loginAdmin({ username: "keeper", password: "the-right-password" }, "10.2.0.1")).toMatchObject({ status: 429 });
    expect((await loginAdmin({ username: "keeper", password: "the-right-password" }, "10.2.0.2")).ok).toBe(true);
  });
});

describe("the login form", () => {
  beforeEach(async () => {
    await upsertAdmin("keeper", "the-right-password");
  });

  async function logInThroughForm(redirectTo: string) {
    const request = new Request("http://x/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "keeper", password: "the-right-password", redirectTo }),
    });
    const response = (await loginAction({ request, params: {}, context: { clientIp: "10.9.0.1" } } as never)) as Response;
    expect(response.status).toBe(302);
    return response.headers.get("Location");
  }

  it("returns to the admin page asked for, with its query and fragment", async () => {
    expect(await logInThroughForm("/admin/poems")).toBe("/admin/poems");
    expect(await logInThroughForm("/admin/uploads?page=2#upload-7")).toBe("/admin/uploads?page=2#upload-7");
    expect(await logInThroughForm("/admin/./poems")).toBe("/admin/poems");
  });

  it("never leaves the admin panel, however the address is disguised", async () => {
    for (const redirectTo of [
      "/admin/..//evil.example",
      "/admin/%2e%2e//evil.example",
      "/admin/../guestbook",
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/admin",
      "/administrator",
      "/admin\t/x",
    ]) {
      expect(await logInThroughForm(redirectTo), redirectTo).toBe("/admin");
    }
  });
});

describe("sessions", () => {
  it("live in the sessions table, end at logout and are gone after expiry", async () => {
    await upsertAdmin("keeper", "the-right-password");
    const admin = db.select().from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
    const setCookie = await startAdminSession(new Request("http://x/admin"), { id: admin.id, username: admin.username });
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=604800/);
    const cookie = cookieOf(setCookie);
    expect(await getAdmin(withCookie(cookie))).toEqual({ id: admin.id, username: "keeper", role: "family" });
    const [row] = db.select().from(sessions).all();
    expect(row!.sess).toEqual({ adminId: admin.id });
    expect(row!.expire.getTime()).toBeGreaterThan(Date.now() + 6.9 * 24 * 3600 * 1000);

    // A forged or altered cookie opens nothing.
    expect(await getAdmin(withCookie(cookie.replace(/.$/, (c) => (c === "A" ? "B" : "A"))))).toBeNull();

    await endAdminSession(withCookie(cookie));
    expect(db.select().from(sessions).all()).toHaveLength(0);
    expect(await getAdmin(withCookie(cookie))).toBeNull();

    const second = cookieOf(await startAdminSession(new Request("http://x/admin"), { id: admin.id, username: admin.username }));
    db.update(sessions)
      .set({ expire: new Date(Date.now() - 1000) })
      .run();
    expect(await getAdmin(withCookie(second))).toBeNull();
    cookieOf(await startAdminSession(new Request("http://x/admin"), { id: admin.id, username: admin.username }));
    db.update(sessions)
      .set({ expire: new Date(Date.now() - 1000) })
      .run();
    expect(sweepExpiredSessions()).toBe(1);
  });
});

describe("attendance", () => {
  it("coerces the number of guests from text, defaults it to 1 and keeps it within 1 to 10", () => {
    const base = { name: "Ann", email: "ann@example.com" };
    expect(RsvpSchema.parse({ ...base, guestCount: "3" }).guestCount).toBe(3);
    expect(RsvpSchema.parse({ ...base }).guestCount).toBe(1);
    expect(RsvpSchema.parse({ ...base, guestCount: "" }).guestCount).toBe(1);
    for (const bad of [0, 11, "2.5", "many", -1])
      expect(RsvpSchema.safeParse({ ...base, guestCount: bad }).success, String(bad)).toBe(false);
    expect(RsvpSchema.safeParse({ name: " ", email: "nope", guestCount: 1 }).error?.issues.map((i) => i.message)).toEqual([
      "Name is required",
      "Valid email is required",
    ]);
  });

  it("counts people and guests", () => {
    db.delete(rsvps).run();
    expect(getRsvpStats()).toEqual({ totalRsvps: 0, totalGuests: 0, rsvps: [] });
    db.insert(rsvps)
      .values([
        { name: "A", email: "a@x.com", guestCount: 2 },
        { name: "B", email: "b@x.com", guestCount: 5, notes: "Lovely" },
      ])
      .run();
    const stats = getRsvpStats();
    expect([stats.totalRsvps, stats.totalGuests]).toEqual([2, 7]);
    expect(Object.keys(stats.rsvps[0]!).sort()).toEqual(["createdAt", "email", "guestCount", "id", "name", "notes"]);
  });
});

describe("CSV exports", () => {
  const read = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer()).toString("utf8");

  it("neutralises cells a spreadsheet would run as formulas", () => {
    for (const risky of ["=1+1", "+1 555", "-2", "@SUM(A1)", "\tx", "\rx"]) expect(neutraliseCell(risky)).toBe(`'${risky}`);
    for (const safe of ["Ann", "a=b", "1-2", ""]) expect(neutraliseCell(safe)).toBe(safe);
  });

  it("dates memories in the family's time zone, as the admin panel shows them, with the zone named", () => {
    expect(content.timeZone).toBe("America/Los_Angeles");
    expect(csvDate(new Date(Date.UTC(2025, 7, 31, 23, 5)), "America/Los_Angeles")).toBe("2025-08-31 16:05 PDT");
    expect(csvDate(new Date(Date.UTC(2026, 0, 2, 7, 30)), "America/Los_Angeles")).toBe("2026-01-01 23:30 PST");
  });

  it("writes UTF-8 with a BOM, quotes what needs quoting and streams many rows", async () => {
    const rows = function* () {
      yield ['Zoë, "the" aunt', "z@example.com", "", "Line one\nLine two", "2025-08-31 09:00 PDT"];
      for (let i = 0; i < 5000; i++) yield [`Friend ${i}`, `f${i}@example.com`, "", "=HYPERLINK()", "2025-08-31 09:00 PDT"];
    };
    const text = await read(csvStream(MEMORY_COLUMNS, rows()));
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const parsed = parse(text.slice(1), { columns: true }) as Record<string, string>[];
    expect(parsed).toHaveLength(5001);
    expect(parsed[0]).toEqual({
      Name: 'Zoë, "the" aunt',
      Email: "z@example.com",
      Phone: "",
      Message: "Line one\nLine two",
      Submitted: "2025-08-31 09:00 PDT",
    });
    expect(parsed[1]!.Message).toBe("'=HYPERLINK()");
  });

  it("exports approved memories only, reading the table in batches", async () => {
    db.delete(memories).run();
    const values = Array.from({ length: 2500 }, (_, i) => ({
      name: `N${i}`,
      email: `n${i}@example.com`,
      message: `Message number ${i}`,
      status: i % 5 === 0 ? ("PENDING" as const) : ("APPROVED" as const),
    }));
    for (let i = 0; i < values.length; i += 500)
      db.insert(memories)
        .values(values.slice(i, i + 500))
        .run();
    const exported = [...approvedMemoryRows()];
    expect(exported).toHaveLength(2000);
    expect(exported[0]!.slice(0, 2)).toEqual(["N1", "n1@example.com"]);
    const stream = csvStream(MEMORY_COLUMNS, Readable.from(approvedMemoryRows()));
    expect((await read(stream)).split("\n").filter(Boolean)).toHaveLength(2001);
  });

  it("lists each contact once by email, with where they came from", () => {
    db.delete(memories).run();
    db.delete(uploads).run();
    db.delete(rsvps).run();
    db.insert(memories).values({ name: "Ann Lee", email: "Ann@Example.com", phone: "555 1", message: "A long enough message" }).run();
    db.insert(uploads)
      .values([
        { type: "IMAGE", url: "/m/1", submittedBy: "Ann Lee (ann@example.com)" },
        { type: "IMAGE", url: "/m/2", submittedBy: "Bob (Bobby) Ray (bob@example.com)" },
        { type: "IMAGE", url: "/m/3", submittedBy: null },
        { type: "AUDIO", url: "/m/4", submittedBy: "Bob (Bobby) Ray (bob@example.com)" },
        { type: "AUDIO", url: "/m/5", submittedBy: "Di (di@example.com)" },
        // A voice may be sent with a name alone: no address, no contact.
        { type: "AUDIO", url: "/m/6", submittedBy: "Grandpa Ted" },
      ])
      .run();
    db.insert(rsvps).values({ name: "Cy", email: "cy@example.com", guestCount: 2 }).run();
    expect(contactRows()).toEqual([
      ["Ann Lee", "Ann@Example.com", "555 1", "Guest book, Photos and videos"],
      ["Bob (Bobby) Ray", "bob@example.com", "", "Photos and videos, Voice memories"],
      ["Cy", "cy@example.com", "", "Attendance"],
      ["Di", "di@example.com", "", "Voice memories"],
    ]);
    expect(parseSubmittedBy("no email here")).toBeNull();
  });

  it("leaves out whoever only sent what was rejected (spam), and a rejected item's details", () => {
    db.delete(memories).run();
    db.delete(uploads).run();
    db.delete(rsvps).run();
    db.insert(memories)
      .values([
        { name: "Spam Bot", email: "bot@spam.example", phone: "555 9", message: "Buy cheap watches now", status: "REJECTED" },
        { name: "Dot", email: "dot@example.com", message: "A kind word, approved", status: "APPROVED" },
        { name: "Dot (rejected twin)", email: "dot@example.com", phone: "555 0", message: "Posted twice by mistake", status: "REJECTED" },
        { name: "Eve", email: "eve@example.com", message: "Still waiting for review" },
      ])
      .run();
    db.insert(uploads)
      .values([
        { type: "IMAGE", url: "/m/4", submittedBy: "Spam Bot (bot2@spam.example)", status: "REJECTED" },
        { type: "IMAGE", url: "/m/5", submittedBy: "Fay (fay@example.com)", status: "HIDDEN" },
      ])
      .run();
    expect(contactRows()).toEqual([
      ["Dot", "dot@example.com", "", "Guest book"],
      ["Eve", "eve@example.com", "", "Guest book"],
      ["Fay", "fay@example.com", "", "Photos and videos"],
    ]);
  });
});
