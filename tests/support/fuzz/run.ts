// One fuzz target against a production server of its own: the server (on this
// test file's database, tests/support/setup.ts), the anonymous and the admin
// clients, sending with at most 8 requests in flight, the tally, the summary
// printed at the end, and the checks that follow every fuzz: the server still
// answers normally and the database holds nothing half-written.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect } from "vitest";
import { upsertAdmin } from "~/admins/admin.server";
import { requireBuild, startSite, type Site } from "../site-process";
import { describeCase, refusal, status, toastOf, verdict, type Answer, type Case, type Ctx, type Table } from "./cases";
import { BODY_CAP } from "./bodies";
import { SiteClient } from "./client";
import { SEED, shuffle } from "./values";

export const ADMIN = { username: "admin", password: "fuzz-admin-password" };
const CONCURRENCY = 8;
const STATUSES = ["PENDING", "APPROVED", "REJECTED"];
const SITE_TITLE = "In Loving Memory";

export const json = (data: unknown) => ({ headers: { "Content-Type": "application/json" }, body: Buffer.from(JSON.stringify(data)) });

export interface FuzzTarget {
  /** http://localhost:<port>, the origin the site sees. */
  readonly origin: string;
  /** A setup step: it must give `expected`, and its JSON answer is returned. */
  must<T>(c: Omit<Case, "expect">, expected: number): Promise<T>;
  /**
   * The fuzz: every case from `build`, in a seeded random order, 8 at a time.
   * Afterwards (soft, so all are reported): at least the target's minimum of
   * requests was sent, the rows added are those the answers accepted, and no
   * answer was wrong.
   */
  fuzz(build: () => Case[]): Promise<void>;
  /** The server still answers normally: /healthz, the home page, a new memory the admin then sees. Returns that memory. */
  stillAnswers(): Promise<{ id: number; message: string }>;
  /** The database file, read-only: whole, consistent, no half-written row; `signed` (from stillAnswers) is in it. */
  databaseIsWhole(signed: { id: number; message: string }): void;
  /**
   * A refused body must not take its connection down with it: after a 413 for
   * `data` posted to `url`, the next request on the same keep-alive connection
   * (GET /healthz) is answered too, as a browser reuses it.
   */
  connectionSurvivesRefusal(endpoint: string, url: string, type: string, data: Buffer): Promise<void>;
}

/**
 * Registers the file's hooks: the build must exist; the configured admin;
 * the server on this file's database; the one real login. At the end the
 * summary is printed and the server stopped.
 */
export function fuzzTarget(target: string, { minRequests }: { minRequests: number }): FuzzTarget {
  const database = process.env.DATABASE_PATH!;
  let site: Site | undefined;
  let clients: Record<Ctx, SiteClient> | undefined;
  const perEndpoint = new Map<string, number>();
  const wrongInputs = new Map<string, number>();
  const failures: string[] = [];
  const wrote: Record<Table, number> = { memories: 0, rsvps: 0, poems: 0 };
  let total = 0;
  let generated = "";
  let started = 0;

  const origin = () => site?.origin ?? "(no server)";

  /** Sends one case, judges its answer (a wrong one is kept for the report) and tallies it. */
  async function send(c: Case): Promise<Answer | null> {
    total += 1;
    perEndpoint.set(c.endpoint, (perEndpoint.get(c.endpoint) ?? 0) + 1);
    let reply;
    try {
      reply = await clients![c.ctx].send({
        method: c.method,
        url: c.url,
        headers: c.headers,
        body: c.body,
        // A body over the cap goes on a connection of its own: after refusing one the
        // server closes that connection (see "a refused body" in fuzz-public-forms),
        // which would otherwise fail whichever request happened to reuse it next.
        freshConnection: (c.body?.length ?? 0) > BODY_CAP,
      });
    } catch (error) {
      failures.push(describeCase(c, null, `no answer (${String(error).split("\n")[0]})`));
      return null;
    }
    const answer: Answer = {
      status: reply.status,
      text: reply.body.toString("utf8"),
      location: reply.headers.location ?? null,
      toast: toastOf(reply.setCookies),
    };
    const problem = verdict(c, answer);
    if (problem) failures.push(describeCase(c, answer, problem));
    for (const [table, n] of Object.entries(c.wrote?.(answer) ?? {})) wrote[table as Table] += n ?? 0;
    return answer;
  }

  async function must<T>(c: Omit<Case, "expect">, expected: number): Promise<T> {
    const answer = await send({ ...c, expect: status(expected) });
    expect(answer?.status, `setup: ${c.method} ${c.url} answered ${answer?.status}: ${answer?.text.slice(0, 300)}`).toBe(expected);
    return (answer!.text ? JSON.parse(answer!.text) : null) as T;
  }

  function rowCounts() {
    const db = new Database(database, { readonly: true, fileMustExist: true });
    try {
      const count = (table: Table) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      return { memories: count("memories"), rsvps: count("rsvps"), poems: count("poems") };
    } finally {
      db.close();
    }
  }

  beforeAll(async () => {
    requireBuild();
    // The admin exists before the server starts, so the one real login below never meets a server still creating it.
    await upsertAdmin(ADMIN.username, ADMIN.password);
    site = await startSite(path.dirname(database), {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      // Every request comes from one address; the limit itself is tested elsewhere.
      SUBMISSIONS_PER_10_MINUTES: "100000",
      // Completing an upload waits for its processing however busy the machine is (1.5 s in production).
      COMPLETION_WAIT_MS: "120000",
      // As on Fly: Fly-Client-IP is trusted.
      FLY_APP_NAME: "memorial-fuzz",
    });
    clients = { anon: new SiteClient(site.origin), admin: new SiteClient(site.origin) };
    started = Date.now();
    // The one real login, before anything else (five wrong ones would lock logins for 15 minutes).
    await must({ endpoint: "POST /api/admin/login", method: "POST", url: "/api/admin/login", ctx: "admin", ...json(ADMIN) }, 200);
    await must({ endpoint: "GET /api/admin/pending-memories", method: "GET", url: "/api/admin/pending-memories", ctx: "admin" }, 200);
  }, 90_000);

  afterAll(async () => {
    const lines = [...perEndpoint.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([endpoint, n]) =>
          `${String(n).padStart(5)}  ${endpoint}${wrongInputs.get(endpoint) ? `  (${wrongInputs.get(endpoint)} certainly wrong)` : ""}`,
      );
    console.log(
      `fuzz ${target} (seed ${SEED}, ${origin()}): ${total} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (${generated}), ${failures.length} wrong answers\n${lines.join("\n")}`,
    );
    clients?.anon.close();
    clients?.admin.close();
    await site?.stop();
  });

  return {
    get origin() {
      return site!.origin;
    },
    must,

    async fuzz(build) {
      const before = rowCounts();
      const generating = Date.now();
      const cases = shuffle(build(), SEED);
      generated = `${cases.length} cases generated in ${((Date.now() - generating) / 1000).toFixed(1)} s`;
      for (const c of cases) if (refusal(c.expect)) wrongInputs.set(c.endpoint, (wrongInputs.get(c.endpoint) ?? 0) + 1);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < cases.length) await send(cases[next++]!);
        }),
      );
      const after = rowCounts();
      expect.soft(total, "requests sent").toBeGreaterThanOrEqual(minRequests);
      // Nothing written by refused requests.
      expect
        .soft(
          { memories: after.memories - before.memories, rsvps: after.rsvps - before.rsvps, poems: after.poems - before.poems },
          "rows added during the fuzz = the requests answered as accepted",
        )
        .toEqual(wrote);
      expect.soft(failures, `${failures.length} wrong answers (seed ${SEED}):\n\n${failures.join("\n\n")}`).toEqual([]);
    },

    async stillAnswers() {
      const health = await send({ endpoint: "GET /healthz", method: "GET", url: "/healthz", ctx: "anon", expect: status(200) });
      expect(health?.text).toBe("ok");
      const home = await send({ endpoint: "GET /", method: "GET", url: "/", ctx: "anon", expect: status(200) });
      expect(home?.status).toBe(200);
      expect(home?.text).toContain(SITE_TITLE);
      const marker = `Still signing after the fuzz, seed ${SEED}, at ${Date.now()}.`;
      const signed = await must<{ id: number; status: string }>(
        {
          endpoint: "POST /api/guestbook",
          method: "POST",
          url: "/api/guestbook",
          ctx: "anon",
          ...json({ name: "After Fuzz", email: "after@example.com", message: marker }),
        },
        201,
      );
      expect(signed.status).toBe("PENDING");
      const stillAdmin = await must<{ id: number }[]>(
        { endpoint: "GET /api/admin/pending-memories", method: "GET", url: "/api/admin/pending-memories", ctx: "admin" },
        200,
      );
      expect(stillAdmin.map((m) => m.id)).toContain(signed.id);
      return { id: signed.id, message: marker };
    },

    async connectionSurvivesRefusal(endpoint, url, type, data) {
      // One connection at most: the second request goes on the first one's connection unless the server closed it.
      const connection = new SiteClient(site!.origin, { maxSockets: 1 });
      try {
        total += 2;
        for (const label of [endpoint, "GET /healthz"]) perEndpoint.set(label, (perEndpoint.get(label) ?? 0) + 1);
        const refused = await connection.send({ method: "POST", url, headers: { "Content-Type": type }, body: data });
        expect.soft(refused.status, `POST ${url} with a ${data.length}-byte body`).toBe(413);
        const askedAt = Date.now();
        const next = await connection
          .send({ method: "GET", url: "/healthz", timeoutMs: 15_000 })
          .catch((error: unknown) => String(error).split("\n")[0]!);
        const seconds = ((Date.now() - askedAt) / 1000).toFixed(1);
        expect
          .soft(
            typeof next === "string" ? `${next} after ${seconds} s` : next.status,
            `after refusing ${data.length} bytes to ${url} with 413, the next request on that connection (GET /healthz) is answered`,
          )
          .toBe(200);
      } finally {
        connection.close();
      }
    },

    databaseIsWhole(signed) {
      const db = new Database(database, { readonly: true, fileMustExist: true });
      try {
        expect(db.prepare("select message from memories where id = ?").get(signed.id), "the test reads the server's own database").toEqual({
          message: signed.message,
        });
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.pragma("foreign_key_check")).toEqual([]);
        const filled = (value: unknown) => typeof value === "string" && value.trim().length > 0;
        type Row = Record<string, unknown>;
        const memories = db.prepare("select id, name, email, message, status from memories").all() as Row[];
        expect(
          memories.filter(
            (m) =>
              !filled(m.name) ||
              !filled(m.email) ||
              !filled(m.message) ||
              String(m.message).trim().length < 10 ||
              !STATUSES.includes(String(m.status)),
          ),
          "memories with an empty name, email or message, a message under 10 characters, or an unknown status",
        ).toEqual([]);
        const rsvps = db.prepare("select id, name, email, guestCount from rsvps").all() as Row[];
        expect(
          rsvps.filter(
            (r) =>
              !filled(r.name) ||
              !filled(r.email) ||
              !Number.isInteger(r.guestCount) ||
              Number(r.guestCount) < 1 ||
              Number(r.guestCount) > 10,
          ),
          "RSVPs with an empty name or email, or a guest count outside 1 to 10",
        ).toEqual([]);
        const uploadRows = db.prepare("select id, type, url, status, storageKey from uploads").all() as Row[];
        expect(
          uploadRows.filter(
            (u) =>
              (!u.storageKey && u.status !== "REJECTED") ||
              !filled(u.url) ||
              !["IMAGE", "VIDEO"].includes(String(u.type)) ||
              !STATUSES.includes(String(u.status)),
          ),
          "uploads without their stored file (and not rejected), without an address, or of an unknown type or status",
        ).toEqual([]);
        const poems = db.prepare("select id, title, content from poems").all() as Row[];
        expect(
          poems.filter((p) => !filled(p.title) || !filled(p.content)),
          "poems with an empty title or content",
        ).toEqual([]);
      } finally {
        db.close();
      }
    },
  };
}
