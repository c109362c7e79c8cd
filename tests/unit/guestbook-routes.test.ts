import { eq } from "drizzle-orm";
import { relativeTime } from "~/utils/relative-time";
import { beforeEach, describe, expect, it } from "vitest";
import { memories, type Status } from "../../db/schema";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { resetSubmissionLimits, TOO_MANY_SUBMISSIONS } from "~/platform/submission-limit.server";
import { action as apiAction, loader as apiLoader } from "~/routes/api.guestbook";
import { action as pageAction, loader as pageLoader } from "~/routes/guestbook";

beforeEach(() => {
  db.delete(memories).run();
  resetSubmissionLimits();
});

const BASE_TIME = Date.UTC(2024, 5, 1, 9, 0, 0);
const KB64 = 64 * 1024;

function seed(
  fields: Partial<{ name: string; email: string; phone: string | null; message: string; canDisplay: boolean; status: Status }> & {
    at: number;
  },
) {
  const { at, ...rest } = fields;
  return db
    .insert(memories)
    .values({
      name: `Friend ${at}`,
      email: `friend.${at}@private.example`,
      phone: `+1-555-01${String(at).padStart(4, "0")}`,
      message: `Remembering the good days, number ${at}`,
      canDisplay: true,
      status: "APPROVED",
      ...rest,
      createdAt: new Date(BASE_TIME + at * 1000),
    })
    .returning()
    .get();
}

/** Seeds `count` approved, displayable memories; returns them newest first. */
function seedMany(count: number) {
  return Array.from({ length: count }, (_, i) => seed({ at: i + 1 })).reverse();
}

function allRows() {
  return db.select().from(memories).all();
}

function rowById(id: number) {
  return db.select().from(memories).where(eq(memories.id, id)).get();
}

/** Calls a route function; a thrown Response is returned like a returned one. */
async function settle(promise: Promise<unknown>): Promise<Response> {
  const result = await promise.catch((thrown: unknown) => thrown);
  if (!(result instanceof Response)) throw new Error(`expected a Response, got ${String(result)}`);
  return result;
}

const validBody = {
  name: "Aunt May",
  email: "may.secret@example.com",
  phone: "555-867-5309",
  message: "We will always remember the summers at the lake.",
  canDisplay: true,
};

function apiPost(
  body: BodyInit | null,
  { headers = { "Content-Type": "application/json" } as HeadersInit, clientIp = "203.0.113.1", extra = {} as RequestInit } = {},
) {
  const request = new Request("http://localhost/api/guestbook", { method: "POST", headers, body, ...extra });
  return settle(apiAction({ request, params: {}, context: { clientIp } }));
}

function apiPostJson(data: unknown, clientIp = "203.0.113.1") {
  return apiPost(JSON.stringify(data), { clientIp });
}

function apiGet(query = "") {
  const request = new Request(`http://localhost/api/guestbook${query}`);
  return settle(apiLoader({ request, params: {}, context: {} }));
}

function pagePost(fields: Record<string, string>, { clientIp = "198.51.100.1", headers = {} as Record<string, string> } = {}) {
  const request = new Request("http://localhost/guestbook", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return settle(pageAction({ request, params: {}, context: { clientIp } }));
}

function pageGet(query = "") {
  const request = new Request(`http://localhost/guestbook${query}`);
  return settle(pageLoader({ request, params: {}, context: {} }));
}

const validForm = {
  name: "Cousin Joe",
  email: "joe.secret@example.com",
  phone: "555-000-1111",
  message: "He taught me how to ride a bike.",
  canDisplay: "on",
};

type ErrorBody = { errors: Record<string, string[]> };

/** A ReadableStream of `total` bytes of JSON-ish text, sent without a Content-Length. */
function streamOf(text: string, chunkSize = 8 * 1024) {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

/** A valid submission padded with an ignored field so its JSON is exactly `size` bytes. */
function paddedJson(size: number) {
  const empty = JSON.stringify({ ...validBody, padding: "" });
  const text = JSON.stringify({ ...validBody, padding: "p".repeat(size - empty.length) });
  expect(Buffer.byteLength(text)).toBe(size);
  return text;
}

describe("POST /api/guestbook", () => {
  it("answers 201 with the new id and stores the memory as PENDING with trimmed values", async () => {
    const response = await apiPostJson({ ...validBody, name: "  Aunt May  ", message: "  We will always remember.  " });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; status: string };
    expect(typeof body.id).toBe("number");
    const row = rowById(body.id);
    expect(row).toMatchObject({
      name: "Aunt May",
      email: "may.secret@example.com",
      phone: "555-867-5309",
      message: "We will always remember.",
      canDisplay: true,
      status: "PENDING",
    });
    expect(allRows()).toHaveLength(1);
  });

  it("stores canDisplay=true when it is absent and honours an explicit false", async () => {
    const { canDisplay: _omit, ...withoutFlag } = validBody;
    const a = (await (await apiPostJson(withoutFlag)).json()) as { id: number };
    const b = (await (await apiPostJson({ ...validBody, message: `${validBody.message} Always.`, canDisplay: false })).json()) as {
      id: number;
    };
    expect(rowById(a.id)!.canDisplay).toBe(true);
    expect(rowById(b.id)!.canDisplay).toBe(false);
  });

  it("stores phone as null when it is missing, empty or null", async () => {
    for (const phone of [undefined, "", null]) {
      const response = await apiPostJson({ ...validBody, phone });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: number };
      expect(rowById(id)!.phone).toBeNull();
    }
  });

  it("accepts a JSON content type with a charset", async () => {
    const response = await apiPost(JSON.stringify(validBody), { headers: { "Content-Type": "application/json; charset=utf-8" } });
    expect(response.status).toBe(201);
    expect(allRows()).toHaveLength(1);
  });

  it("answers 400 with exactly the field errors when fields are invalid, and stores nothing", async () => {
    const response = await apiPostJson({ name: "   ", email: "not-an-email", message: "  too short  " });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: {
        name: ["Name is required"],
        email: ["Valid email is required"],
        message: ["Message must be at least 10 characters"],
      },
    });
    expect(allRows()).toEqual([]);
  });

  it("answers 400 (not a throw) for a wrong type such as name: 42", async () => {
    const response = await apiPostJson({ ...validBody, name: 42 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: { name: ["Name is required"] } });
    expect(allRows()).toEqual([]);
  });

  it("answers 400 for an empty object, naming every required field", async () => {
    const response = await apiPostJson({});
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(Object.keys(body.errors).sort()).toEqual(["email", "message", "name"]);
  });

  it("answers 415 for text/plain and stores nothing", async () => {
    const response = await apiPost(JSON.stringify(validBody), { headers: { "Content-Type": "text/plain" } });
    expect(response.status).toBe(415);
    const body = (await response.json()) as ErrorBody;
    expect(body.errors.body?.[0]).toMatch(/application\/json/);
    expect(allRows()).toEqual([]);
  });

  it("answers 415 when there is no content type", async () => {
    const response = await apiPost(new Blob([JSON.stringify(validBody)]), { headers: {} });
    expect(response.status).toBe(415);
    expect(allRows()).toEqual([]);
  });

  it("answers 400 for malformed JSON", async () => {
    const response = await apiPost('{"name": "Aunt May", ');
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.errors.body).toEqual(["The request body is not valid JSON"]);
    expect(allRows()).toEqual([]);
  });

  it("answers 400 for an empty body", async () => {
    const response = await apiPost("");
    expect(response.status).toBe(400);
    expect(allRows()).toEqual([]);
  });

  it.each([
    ["an array", JSON.stringify([validBody])],
    ["null", "null"],
    ["a string", JSON.stringify("hello")],
    ["a number", "42"],
  ])("answers 400 for a JSON body that is %s", async (_label, text) => {
    const response = await apiPost(text);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.errors.body).toEqual(["The request body must be a JSON object"]);
    expect(allRows()).toEqual([]);
  });

  it("answers 413 for a body over 64 KB declared by Content-Length", async () => {
    const text = paddedJson(KB64 + 1);
    const response = await apiPost(text, {
      headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) },
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as ErrorBody;
    expect(body.errors.body?.[0]).toMatch(/64 KB/);
    expect(allRows()).toEqual([]);
  });

  it("answers 413 from the declared Content-Length alone, before reading the body", async () => {
    const response = await apiPost(JSON.stringify(validBody), {
      headers: { "Content-Type": "application/json", "Content-Length": String(KB64 + 1) },
    });
    expect(response.status).toBe(413);
    expect(allRows()).toEqual([]);
  });

  it("answers 413 for a streamed body over 64 KB sent without a Content-Length", async () => {
    const text = paddedJson(KB64 + 1);
    const request = new Request("http://localhost/api/guestbook", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: streamOf(text),
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("Content-Length")).toBeNull();
    const response = await settle(apiAction({ request, params: {}, context: { clientIp: "203.0.113.1" } }));
    expect(response.status).toBe(413);
    expect(allRows()).toEqual([]);
  });

  it("accepts a streamed body of exactly 64 KB", async () => {
    const request = new Request("http://localhost/api/guestbook", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: streamOf(paddedJson(KB64)),
      duplex: "half",
    } as RequestInit);
    const response = await settle(apiAction({ request, params: {}, context: { clientIp: "203.0.113.1" } }));
    expect(response.status).toBe(201);
    expect(allRows()).toHaveLength(1);
  });

  it("answers 405 to a method other than POST, naming the methods it takes as every API address does", async () => {
    const request = new Request("http://localhost/api/guestbook", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(validBody),
    });
    const response = await settle(apiAction({ request, params: {}, context: {} }));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, POST");
    expect(await response.json()).toEqual({ errors: { method: ["Use GET, POST here"] } });
    expect(allRows()).toEqual([]);
  });

  it("never echoes the email or phone in its answer", async () => {
    const response = await apiPostJson(validBody);
    const text = await response.text();
    expect(text).not.toContain(validBody.email);
    expect(text).not.toContain(validBody.phone);
  });
});

describe("GET /api/guestbook", () => {
  it("returns 10 memories by default, newest first, each exactly id, name, message, createdAt", async () => {
    const seeded = seedMany(15);
    const response = await apiGet();
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>[];
    expect(body.map((m) => m.id)).toEqual(seeded.slice(0, 10).map((m) => m.id));
    for (const memory of body) {
      expect(Object.keys(memory).sort()).toEqual(["createdAt", "id", "message", "name"]);
      const iso = memory.createdAt as string;
      expect(new Date(iso).toISOString()).toBe(iso);
    }
    expect(body[0]).toEqual({
      id: seeded[0]!.id,
      name: seeded[0]!.name,
      message: seeded[0]!.message,
      createdAt: seeded[0]!.createdAt.toISOString(),
    });
  });

  it("pages with limit and offset", async () => {
    const seeded = seedMany(25);
    const pages = await Promise.all(
      [0, 10, 20].map(async (offset) => (await (await apiGet(`?limit=10&offset=${offset}`)).json()) as { id: number }[]),
    );
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.flat().map((m) => m.id)).toEqual(seeded.map((m) => m.id));
  });

  it("allows a limit of 50", async () => {
    seedMany(55);
    const body = (await (await apiGet("?limit=50")).json()) as unknown[];
    expect(body).toHaveLength(50);
  });

  it("lists only approved memories the author allowed to display", async () => {
    const shown = seed({ at: 1 });
    seed({ at: 2, status: "PENDING" });
    seed({ at: 3, status: "REJECTED" });
    seed({ at: 4, canDisplay: false });
    const body = (await (await apiGet()).json()) as { id: number }[];
    expect(body.map((m) => m.id)).toEqual([shown.id]);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=51", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=-1", "limit"],
    ["offset=-1", "offset"],
    ["offset=abc", "offset"],
  ])("answers 400 naming the field for ?%s", async (query, field) => {
    seedMany(3);
    const response = await apiGet(`?${query}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(Object.keys(body.errors)).toEqual([field]);
    expect(body.errors[field]![0]).toMatch(new RegExp(field));
  });

  it("names both fields when both are bad", async () => {
    const response = await apiGet("?limit=0&offset=-1");
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(Object.keys(body.errors).sort()).toEqual(["limit", "offset"]);
  });

  it("names the next page in a Link header, and before= continues after the last memory, each once", async () => {
    const seeded = seedMany(25);
    const seen: number[] = [];
    let address: string | null = "/api/guestbook?limit=10";
    const links: string[] = [];
    while (address) {
      const response = await apiGet(address.slice("/api/guestbook".length));
      expect(response.status).toBe(200);
      seen.push(...((await response.json()) as { id: number }[]).map((m) => m.id));
      const link = response.headers.get("Link");
      if (link) links.push(link);
      address = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
    }
    expect(seen).toEqual(seeded.map((m) => m.id));
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toMatch(/^<\/api\/guestbook\?limit=10&before=[\w-]+>; rel="next"$/);
    // The spec's offset pages say where they would continue too, and the last page names none.
    expect((await apiGet("?limit=10&offset=10")).headers.get("Link")).toMatch(/^<\/api\/guestbook\?limit=10&before=[\w-]+>; rel="next"$/);
    expect((await apiGet("?limit=10&offset=20")).headers.get("Link")).toBeNull();
  });

  it.each([
    ["not base64", "a+b/c="],
    ["not a cursor", Buffer.from("hello").toString("base64url")],
    ["a cursor with a third part", Buffer.from("1700000000000.5.1").toString("base64url")],
    ["a negative time", Buffer.from("-1.5").toString("base64url")],
    ["numbers too large to be exact", Buffer.from("99999999999999999.1").toString("base64url")],
    ["too long", "A".repeat(200)],
  ])("answers 400 with errors.before for a malformed cursor (%s)", async (_label, cursor) => {
    seedMany(3);
    const response = await apiGet(`?before=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(Object.keys(body.errors)).toEqual(["before"]);
    expect(body.errors.before![0]).toMatch(/before/);
  });

  it("answers 400 for before and offset together, and names every bad field at once", async () => {
    seedMany(2);
    const next = /before=([\w-]+)/.exec((await apiGet("?limit=1")).headers.get("Link")!)![1]!;
    const both = await apiGet(`?before=${next}&offset=10`);
    expect(both.status).toBe(400);
    expect(Object.keys(((await both.json()) as ErrorBody).errors)).toEqual(["before"]);
    const all = await apiGet("?limit=0&offset=-1&before=%%");
    expect(Object.keys(((await all.json()) as ErrorBody).errors).sort()).toEqual(["before", "limit", "offset"]);
  });

  it("is not cached", async () => {
    const response = await apiGet();
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("never contains the email or phone of any memory", async () => {
    const seeded = seedMany(12);
    const text = (await Promise.all([apiGet(), apiGet("?limit=50"), apiGet("?offset=10")].map(async (r) => (await r).text()))).join("\n");
    expect(text).toContain(seeded[0]!.name);
    for (const m of seeded) {
      expect(text).not.toContain(m.email);
      expect(text).not.toContain(m.phone!);
    }
  });
});

describe("the guest book form (page action)", () => {
  it("stores a valid memory as PENDING and redirects to /guestbook with a toast cookie", async () => {
    const response = await pagePost(validForm);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/guestbook");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__toast=/);
    const rows = allRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Cousin Joe",
      email: "joe.secret@example.com",
      phone: "555-000-1111",
      message: "He taught me how to ride a bike.",
      canDisplay: true,
      status: "PENDING",
    });
  });

  it("stores canDisplay=false when the checkbox is not ticked, and phone null when empty", async () => {
    const { canDisplay: _omit, ...unticked } = validForm;
    const response = await pagePost({ ...unticked, phone: "" });
    expect(response.status).toBe(302);
    const rows = allRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.canDisplay).toBe(false);
    expect(rows[0]!.phone).toBeNull();
  });

  it("answers 400 with the field messages and stores nothing when the form is invalid", async () => {
    const response = await pagePost({ name: "", email: "joe@", message: "  short  ", canDisplay: "on" });
    expect(response.status).toBe(400);
    const data = (await response.json()) as { failed: boolean; result: { error?: Record<string, string[] | null> } };
    expect(data.failed).toBe(true);
    expect(data.result.error).toMatchObject({
      name: ["Name is required"],
      email: ["Valid email is required"],
      message: ["Message must be at least 10 characters"],
    });
    expect(allRows()).toEqual([]);
  });

  it("thanks a bot that fills in the honeypot with the normal redirect, and stores nothing", async () => {
    const response = await pagePost({ ...validForm, website: "http://spam.example" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/guestbook");
    expect(response.headers.get("Set-Cookie")).toMatch(/^__toast=/);
    expect(allRows()).toEqual([]);
  });

  it("refuses a form declared larger than 64 KB with 413", async () => {
    const body = new URLSearchParams({ ...validForm, message: "m".repeat(KB64) }).toString();
    const request = new Request("http://localhost/guestbook", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(body.length) },
      body,
    });
    const response = await settle(pageAction({ request, params: {}, context: { clientIp: "198.51.100.1" } }));
    expect(response.status).toBe(413);
    expect(allRows()).toEqual([]);
  });
});

describe("the submission rate limit", () => {
  // Each a different memory: the same one sent twice is kept once and not counted again.
  let sent = 0;
  const another = <T extends { message: string }>(fields: T): T => ({ ...fields, message: `${fields.message} (${++sent})` });

  const LIMIT = config.SUBMISSIONS_PER_10_MINUTES;

  it("answers 429 with Retry-After and the message to the submission past the limit from one address (API), while another address still succeeds", async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await apiPostJson(another(validBody), "192.0.2.10")).status).toBe(201);
    }
    const refused = await apiPostJson(another(validBody), "192.0.2.10");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ errors: { body: [TOO_MANY_SUBMISSIONS] } });
    expect(allRows()).toHaveLength(LIMIT);

    expect((await apiPostJson(another(validBody), "192.0.2.11")).status).toBe(201);
    expect(allRows()).toHaveLength(LIMIT + 1);
  });

  it("answers 429 with Retry-After and the message to the submission past the limit from one address (form)", async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await pagePost(another(validForm), { clientIp: "192.0.2.20" })).status).toBe(302);
    }
    const refused = await pagePost(another(validForm), { clientIp: "192.0.2.20" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const data = (await refused.json()) as { failed: boolean; result: { error?: Record<string, string[] | null> } };
    expect(data.failed).toBe(true);
    expect(JSON.stringify(data)).toContain(TOO_MANY_SUBMISSIONS);
    expect(allRows()).toHaveLength(LIMIT);

    expect((await pagePost(another(validForm), { clientIp: "192.0.2.21" })).status).toBe(302);
    expect(allRows()).toHaveLength(LIMIT + 1);
  });

  it("counts form and API submissions from one address together", async () => {
    for (let i = 0; i < LIMIT / 2; i++) {
      expect((await pagePost(another(validForm), { clientIp: "192.0.2.30" })).status).toBe(302);
      expect((await apiPostJson(another(validBody), "192.0.2.30")).status).toBe(201);
    }
    expect((await apiPostJson(another(validBody), "192.0.2.30")).status).toBe(429);
    expect((await pagePost(another(validForm), { clientIp: "192.0.2.30" })).status).toBe(429);
    expect(allRows()).toHaveLength(LIMIT);
  });

  it("counts only stored submissions: invalid ones and honeypot hits do not use up the limit", async () => {
    for (let i = 0; i < LIMIT + 5; i++) {
      expect((await apiPostJson({ ...validBody, message: "short" }, "192.0.2.40")).status).toBe(400);
      expect((await pagePost({ ...validForm, website: "spam" }, { clientIp: "192.0.2.40" })).status).toBe(302);
    }
    expect(allRows()).toEqual([]);
    expect((await apiPostJson(another(validBody), "192.0.2.40")).status).toBe(201);
    expect(allRows()).toHaveLength(1);
  });

  it("starts afresh after resetSubmissionLimits()", async () => {
    for (let i = 0; i < LIMIT; i++) await apiPostJson(another(validBody), "192.0.2.50");
    expect((await apiPostJson(another(validBody), "192.0.2.50")).status).toBe(429);
    resetSubmissionLimits();
    expect((await apiPostJson(another(validBody), "192.0.2.50")).status).toBe(201);
  });
});

describe("the guest book page loader", () => {
  type PageData = { memories: Record<string, unknown>[]; next: string | null; before: string | null; now: number };

  async function loadPage(query = "") {
    const response = await pageGet(query);
    expect(response.status).toBe(200);
    return (await response.json()) as PageData;
  }

  it("returns only approved, displayable memories, newest first, as id, name, message, createdAt and how long ago", async () => {
    const older = seed({ at: 1 });
    const newer = seed({ at: 5 });
    seed({ at: 2, status: "PENDING" });
    seed({ at: 3, status: "REJECTED" });
    seed({ at: 4, canDisplay: false });
    const data = await loadPage();
    expect(data.memories.map((m) => m.id)).toEqual([newer.id, older.id]);
    for (const memory of data.memories) {
      expect(Object.keys(memory).sort()).toEqual(["ago", "createdAt", "id", "message", "name"]);
      // Written on the server, in the words the page used to work out itself (the browser loads them only for Load More).
      expect(memory.ago).toBe(relativeTime(memory.createdAt as string, data.now));
      expect(memory.ago).toMatch(/ ago$/);
    }
    expect(data.next).toBeNull();
    expect(typeof data.now).toBe("number");
  });

  it("shows 10 memories and offers more when exactly 10 exist", async () => {
    seedMany(10);
    const data = await loadPage();
    expect(data.memories).toHaveLength(10);
    expect(data.next).not.toBeNull();
  });

  it("does not offer more when only 9 exist", async () => {
    seedMany(9);
    const data = await loadPage();
    expect(data.memories).toHaveLength(9);
    expect(data.next).toBeNull();
  });

  it("returns the first 10 of 25 without an offset", async () => {
    const seeded = seedMany(25);
    const data = await loadPage();
    expect(data.memories.map((m) => m.id)).toEqual(seeded.slice(0, 10).map((m) => m.id));
    expect(data.next).not.toBeNull();
  });

  it("returns everything up to the next page with ?offset=10", async () => {
    const seeded = seedMany(25);
    const data = await loadPage("?offset=10");
    expect(data.memories.map((m) => m.id)).toEqual(seeded.slice(0, 20).map((m) => m.id));
    expect(data.next).not.toBeNull();
  });

  it("returns all of 15 with ?offset=10 and offers no more", async () => {
    const seeded = seedMany(15);
    const data = await loadPage("?offset=10");
    expect(data.memories.map((m) => m.id)).toEqual(seeded.map((m) => m.id));
    expect(data.next).toBeNull();
  });

  it.each(["?offset=abc", "?offset=-5", "?offset=1.5"])("treats a bad offset (%s) as the first page", async (query) => {
    seedMany(15);
    const data = await loadPage(query);
    expect(data.memories).toHaveLength(10);
  });

  it("shows at most 100 memories however far ?offset= reaches, then continues after the last one with ?before=", async () => {
    const seeded = seedMany(125);
    const far = await loadPage("?offset=5000");
    expect(far.memories.map((m) => m.id)).toEqual(seeded.slice(0, 100).map((m) => m.id));
    expect(far.before).toBeNull();
    expect(far.next).not.toBeNull();

    const earlier = await loadPage(`?before=${far.next}`);
    expect(earlier.memories.map((m) => m.id)).toEqual(seeded.slice(100, 110).map((m) => m.id));
    expect(earlier.before).toBe(far.next);
    // "Load More" on that page keeps its start.
    const grown = await loadPage(`?before=${far.next}&offset=10`);
    expect(grown.memories.map((m) => m.id)).toEqual(seeded.slice(100, 120).map((m) => m.id));
    const last = await loadPage(`?before=${far.next}&offset=20`);
    expect(last.memories.map((m) => m.id)).toEqual(seeded.slice(100).map((m) => m.id));
    expect(last.next).toBeNull();
  });

  it("treats a cursor it did not write as the newest page", async () => {
    const seeded = seedMany(15);
    const data = await loadPage("?before=not-a-cursor");
    expect(data.memories.map((m) => m.id)).toEqual(seeded.slice(0, 10).map((m) => m.id));
    expect(data.before).toBeNull();
  });

  it("never contains the email or phone of the seeded memories", async () => {
    const seeded = [...seedMany(12), seed({ at: 99, status: "PENDING" }), seed({ at: 98, canDisplay: false })];
    const text = [await (await pageGet()).text(), await (await pageGet("?offset=10")).text()].join("\n");
    expect(text).toContain(seeded[0]!.name);
    for (const m of seeded) {
      expect(text).not.toContain(m.email);
      expect(text).not.toContain(m.phone!);
    }
  });
});

describe("guest book form posts the server cannot read", () => {
  it("an oversized form streamed without a Content-Length is refused with 413 and nothing is stored", async () => {
    const before = db.select().from(memories).all().length;
    const body = new URLSearchParams({
      name: "Bob",
      email: "b@example.com",
      message: "0123456789 hello",
      padding: "p".repeat(200_000),
    }).toString();
    const encoded = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < encoded.length; i += 8192) controller.enqueue(encoded.slice(i, i + 8192));
        controller.close();
      },
    });
    const request = new Request("http://localhost/guestbook", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const response = (await Promise.resolve(pageAction({ request, params: {}, context: { clientIp: "203.0.113.99" } })).catch(
      (r) => r,
    )) as Response;
    expect(response.status).toBe(413);
    expect(db.select().from(memories).all().length).toBe(before);
  });

  it.each([
    ["text/plain", "name=x", 415],
    ["multipart/form-data; boundary=abc", "garbage", 400],
  ] as const)("a body sent as %s is answered with %i, not a server error", async (type: string, body: string, status: number) => {
    const request = new Request("http://localhost/guestbook", { method: "POST", headers: { "Content-Type": type }, body });
    const response = (await Promise.resolve(pageAction({ request, params: {}, context: { clientIp: "203.0.113.98" } })).catch(
      (r) => r,
    )) as Response;
    expect(response.status).toBe(status);
    expect(await response.text()).toMatch(/form/);
  });
});

describe("the same memory sent twice (Back and Send again, a double tap)", () => {
  it("is kept once: both answers succeed, with the same id, from the form or the API", async () => {
    const first = await apiPostJson(validBody);
    const second = await apiPostJson(validBody);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(((await second.json()) as { id: number }).id).toBe(((await first.json()) as { id: number }).id);
    expect((await pagePost({ ...validForm, name: validBody.name, email: validBody.email, message: validBody.message })).status).toBe(302);
    expect(allRows()).toHaveLength(1);
  });

  it("is a new memory when anything differs, or once ten minutes have passed", async () => {
    const { id } = (await (await apiPostJson(validBody)).json()) as { id: number };
    await apiPostJson({ ...validBody, message: `${validBody.message}!` });
    await apiPostJson({ ...validBody, email: "someone.else@example.com" });
    expect(allRows()).toHaveLength(3);
    db.update(memories)
      .set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(memories.id, id))
      .run();
    expect((await apiPostJson(validBody)).status).toBe(201);
    expect(allRows()).toHaveLength(4);
  });
});

describe("form pages are never stored", () => {
  it("the guest book and attendance pages send Cache-Control: no-store, so Back fetches them afresh", async () => {
    const { headers: guestbookHeaders } = await import("~/routes/guestbook");
    const { headers: rsvpHeaders } = await import("~/routes/rsvp");
    for (const headers of [guestbookHeaders, rsvpHeaders]) {
      const args = { loaderHeaders: new Headers(), parentHeaders: new Headers(), actionHeaders: new Headers(), errorHeaders: undefined };
      expect(new Headers(typeof headers === "function" ? headers(args) : headers).get("Cache-Control")).toBe("no-store");
    }
  });
});
