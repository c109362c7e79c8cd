import { parseWithZod } from "@conform-to/zod/v4";
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { memories, type Status } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { MemoryApiSchema, MemoryFormSchema } from "~/guestbook/memory.schema";
import { listPublicMemories, setMemoryStatus, submitMemory } from "~/guestbook/memory.server";
import { resetSubmissionLimits } from "~/platform/submission-limit.server";
import { decodeCursor } from "~/platform/page-cursor.server";

beforeEach(() => {
  db.delete(memories).run();
  resetSubmissionLimits();
});

const BASE_TIME = Date.UTC(2024, 0, 1, 12, 0, 0);

/** Inserts a memory directly, with an explicit creation time (ms after BASE_TIME). */
function seed(
  fields: Partial<{ name: string; email: string; phone: string | null; message: string; canDisplay: boolean; status: Status }> & {
    at: number;
  },
) {
  const { at, ...rest } = fields;
  return db
    .insert(memories)
    .values({
      name: `Person ${at}`,
      email: `person${at}@example.com`,
      phone: "555-0100",
      message: `A message written at ${at}`,
      canDisplay: true,
      status: "APPROVED",
      ...rest,
      createdAt: new Date(BASE_TIME + at),
    })
    .returning()
    .get();
}

function storedRow(id: number) {
  return db.select().from(memories).where(eq(memories.id, id)).get();
}

/** Messages zod reports for one field, or [] when the field is fine. */
function apiErrors(input: Record<string, unknown>, field: string): string[] {
  const result = MemoryApiSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path[0] === field).map((i) => i.message);
}

const valid = {
  name: "Aunt May",
  email: "may@example.com",
  phone: "555-0199",
  message: "We will always remember the summers at the lake.",
};

describe("listPublicMemories", () => {
  it("pages through 25 approved memories as 10, 10 and 5, newest first, without overlap", () => {
    const seeded = Array.from({ length: 25 }, (_, i) => seed({ at: i * 1000 }));
    const newestFirst = [...seeded].reverse().map((m) => m.id);

    const page1 = listPublicMemories({ limit: 10, offset: 0 }).items;
    const page2 = listPublicMemories({ limit: 10, offset: 10 }).items;
    const page3 = listPublicMemories({ limit: 10, offset: 20 }).items;

    expect(page1).toHaveLength(10);
    expect(page2).toHaveLength(10);
    expect(page3).toHaveLength(5);
    expect([...page1, ...page2, ...page3].map((m) => m.id)).toEqual(newestFirst);
    expect(listPublicMemories({ limit: 10, offset: 30 }).items).toEqual([]);
  });

  it("orders by creation time, not by insertion order", () => {
    const middle = seed({ at: 5000 });
    const oldest = seed({ at: 1000 });
    const newest = seed({ at: 9000 });
    const list = listPublicMemories({ limit: 10, offset: 0 }).items;
    expect(list.map((m) => m.id)).toEqual([newest.id, middle.id, oldest.id]);
    expect(list.map((m) => m.createdAt)).toEqual([
      new Date(BASE_TIME + 9000).toISOString(),
      new Date(BASE_TIME + 5000).toISOString(),
      new Date(BASE_TIME + 1000).toISOString(),
    ]);
  });

  it("leaves out pending, rejected and not-for-display memories", () => {
    const shown = seed({ at: 1, name: "Shown" });
    seed({ at: 2, name: "Pending", status: "PENDING" });
    seed({ at: 3, name: "Rejected", status: "REJECTED" });
    seed({ at: 4, name: "Private", canDisplay: false });
    seed({ at: 5, name: "Pending private", status: "PENDING", canDisplay: false });
    const list = listPublicMemories({ limit: 50, offset: 0 }).items;
    expect(list.map((m) => m.id)).toEqual([shown.id]);
    expect(list.map((m) => m.name)).toEqual(["Shown"]);
  });

  it("returns exactly id, name, message and createdAt as an ISO string, never email or phone", () => {
    const row = seed({ at: 42, name: "Uncle Bob", email: "bob.secret@example.com", phone: "555-7777", message: "Fishing trips forever." });
    const [memory] = listPublicMemories({ limit: 10, offset: 0 }).items;
    expect(memory).toBeDefined();
    expect(Object.keys(memory!).sort()).toEqual(["createdAt", "id", "message", "name"]);
    expect(memory).toEqual({
      id: row.id,
      name: "Uncle Bob",
      message: "Fishing trips forever.",
      createdAt: new Date(BASE_TIME + 42).toISOString(),
    });
    const text = JSON.stringify(memory);
    expect(text).not.toContain("bob.secret@example.com");
    expect(text).not.toContain("555-7777");
  });
});

describe("listPublicMemories: the newest page kept between reads", () => {
  it("shows an approval, a rejection and an edit at the next read, through this connection", () => {
    const first = seed({ at: 1, name: "First" });
    const waiting = seed({ at: 2, name: "Waiting", status: "PENDING" });
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["First"]);
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["First"]);
    setMemoryStatus(waiting.id, "APPROVED", operator());
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["Waiting", "First"]);
    setMemoryStatus(first.id, "REJECTED", operator());
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["Waiting"]);
    db.update(memories).set({ message: "Edited" }).where(eq(memories.id, waiting.id)).run();
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.message)).toEqual(["Edited"]);
    // Another page size is read afresh, not cut from the kept one.
    seed({ at: 3, name: "Third" });
    expect(listPublicMemories({ limit: 1 }).items.map((m) => m.name)).toEqual(["Third"]);
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["Third", "Waiting"]);
  });

  it("shows a write committed by another connection to the file (npm run admin, another process) at the next read", () => {
    const waiting = seed({ at: 1, name: "Approved elsewhere", status: "PENDING" });
    expect(listPublicMemories({ limit: 10 }).items).toEqual([]);
    const other = new Database(process.env.DATABASE_PATH!);
    try {
      other.prepare("update memories set status = 'APPROVED' where id = ?").run(waiting.id);
    } finally {
      other.close();
    }
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["Approved elsewhere"]);
  });

  it("hands each caller its own list", () => {
    seed({ at: 1, name: "One" });
    listPublicMemories({ limit: 10 }).items.pop();
    expect(listPublicMemories({ limit: 10 }).items.map((m) => m.name)).toEqual(["One"]);
  });
});

describe("listPublicMemories by cursor (the next page starts after the last memory shown)", () => {
  /** Follows `next` from the newest page until there is none; returns each page's ids. */
  function allPages(limit: number) {
    const pages: number[][] = [];
    let page = listPublicMemories({ limit });
    pages.push(page.items.map((m) => m.id));
    while (page.next) {
      page = listPublicMemories({ limit, before: decodeCursor(page.next)! });
      pages.push(page.items.map((m) => m.id));
    }
    return pages;
  }

  it("covers every shown memory exactly once, newest first, when many share a creation time", () => {
    // Ten different times for 37 memories (bursts of approvals in one millisecond), in mixed insertion order,
    // with pending, rejected and private memories among them.
    const shown = Array.from({ length: 37 }, (_, i) => seed({ at: ((i * 7) % 10) * 1000 }));
    for (const status of ["PENDING", "REJECTED"] as const) seed({ at: 5000, status });
    seed({ at: 5000, canDisplay: false });
    const expected = [...shown].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((m) => m.id);

    const pages = allPages(10);
    expect(pages.map((ids) => ids.length)).toEqual([10, 10, 10, 7]);
    expect(pages.flat()).toEqual(expected);
    // And the same memories in the same order as the spec's offset pages.
    expect(listPublicMemories({ limit: 50, offset: 0 }).items.map((m) => m.id)).toEqual(expected);
  });

  it("ends with a cursor only when the page is full, as Load More shows at a full page", () => {
    seed({ at: 1 });
    seed({ at: 2 });
    expect(listPublicMemories({ limit: 2 }).next).toEqual(expect.any(String));
    expect(listPublicMemories({ limit: 3 }).next).toBeNull();
    expect(listPublicMemories({ limit: 2, before: decodeCursor(listPublicMemories({ limit: 2 }).next!)! })).toEqual({
      items: [],
      next: null,
    });
  });

  it("neither repeats nor skips a memory when others are approved while a visitor pages", () => {
    const shown = Array.from({ length: 25 }, (_, i) => seed({ at: (i + 1) * 1000 }));
    const waiting = seed({ at: 23_500, status: "PENDING" }); // written long ago, among the newest page's
    const first = listPublicMemories({ limit: 10 });

    setMemoryStatus(waiting.id, "APPROVED", operator());
    seed({ at: 30_000 }); // and a new one, newer than all
    const second = listPublicMemories({ limit: 10, before: decodeCursor(first.next!)! });
    const third = listPublicMemories({ limit: 10, before: decodeCursor(second.next!)! });

    const seen = [...first.items, ...second.items, ...third.items].map((m) => m.id);
    expect(seen).toEqual([...shown].reverse().map((m) => m.id));
    // Counting by offset instead would have shown the last two of the first page again.
    expect(listPublicMemories({ limit: 10, offset: 10 }).items[0]!.id).toBe(first.items.at(-2)!.id);
  });
});

describe("submitMemory", () => {
  it("stores a memory as PENDING with trimmed values", () => {
    const input = MemoryApiSchema.parse({
      name: "  Aunt May  ",
      email: "  may@example.com ",
      phone: "  555-0199  ",
      message: "   We will always remember the lake.   ",
      canDisplay: false,
    });
    const { id } = submitMemory(input, { clientIp: "10.0.0.1" });
    const row = storedRow(id);
    expect(row).toMatchObject({
      id,
      name: "Aunt May",
      email: "may@example.com",
      phone: "555-0199",
      message: "We will always remember the lake.",
      canDisplay: false,
      status: "PENDING",
    });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(row!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("is not listed publicly until approved", () => {
    const { id } = submitMemory(MemoryApiSchema.parse(valid));
    expect(listPublicMemories({ limit: 10, offset: 0 }).items).toEqual([]);
    expect(setMemoryStatus(id, "APPROVED", operator())).toBe(true);
    expect(listPublicMemories({ limit: 10, offset: 0 }).items.map((m) => m.id)).toEqual([id]);
  });

  it.each([
    ["an empty string", ""],
    ["null", null],
    ["missing", undefined],
  ])("stores phone as null when it is %s", (_label, phone) => {
    const input = MemoryApiSchema.parse({ ...valid, phone });
    const { id } = submitMemory(input);
    expect(storedRow(id)!.phone).toBeNull();
  });

  it("stores the API default canDisplay=true when it is absent", () => {
    const { id } = submitMemory(MemoryApiSchema.parse(valid));
    expect(storedRow(id)!.canDisplay).toBe(true);
  });
});

describe("setMemoryStatus", () => {
  it("returns false for an unknown id and changes nothing", () => {
    const row = seed({ at: 1, status: "PENDING" });
    expect(setMemoryStatus(row.id + 1000, "APPROVED", operator())).toBe(false);
    expect(storedRow(row.id)!.status).toBe("PENDING");
  });

  it("returns true and stores the new status for a known id", () => {
    const row = seed({ at: 1, status: "PENDING" });
    expect(setMemoryStatus(row.id, "REJECTED", operator())).toBe(true);
    expect(storedRow(row.id)!.status).toBe("REJECTED");
  });
});

describe("guest book validation rules", () => {
  it("accepts a complete submission", () => {
    expect(MemoryApiSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["only spaces", "    "],
    ["not a string", 42],
  ])("requires a name (%s)", (_label, name) => {
    expect(apiErrors({ ...valid, name }, "name")).toEqual(["Name is required"]);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["without an @", "may.example.com"],
    ["without a domain", "may@"],
    ["not a string", 7],
  ])("requires a valid email (%s)", (_label, email) => {
    expect(apiErrors({ ...valid, email }, "email")).toEqual(["Valid email is required"]);
  });

  it("accepts a message of exactly 10 characters after trimming", () => {
    const result = MemoryApiSchema.safeParse({ ...valid, message: "   0123456789   " });
    expect(result.success).toBe(true);
    expect(result.data!.message).toBe("0123456789");
  });

  it.each([
    ["9 characters", "012345678"],
    ["9 characters padded with spaces", "     012345678     "],
    ["spaces and one letter", "          x"],
    ["only spaces", "                    "],
    ["missing", undefined],
    ["not a string", 1234567890],
  ])("refuses a message that is %s", (_label, message) => {
    expect(apiErrors({ ...valid, message }, "message")).toEqual(["Message must be at least 10 characters"]);
  });

  it.each([
    ["name", "x".repeat(101), "x".repeat(100)],
    ["email", `${"a".repeat(243)}@example.com`, `${"a".repeat(242)}@example.com`],
    ["phone", "1".repeat(41), "1".repeat(40)],
    ["message", "m".repeat(5001), "m".repeat(5000)],
  ])("refuses a %s over its maximum length with a message", (field, tooLong, atLimit) => {
    expect(tooLong.length - atLimit.length).toBe(1);
    const errors = apiErrors({ ...valid, [field]: tooLong }, field);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/at most/);
    expect(apiErrors({ ...valid, [field]: atLimit }, field)).toEqual([]);
  });

  it("refuses an email of 255 characters", () => {
    const email = `${"a".repeat(243)}@example.com`;
    expect(email).toHaveLength(255);
    expect(apiErrors({ ...valid, email }, "email").length).toBeGreaterThan(0);
  });

  it("defaults canDisplay to true in the API when it is absent", () => {
    expect(MemoryApiSchema.parse(valid).canDisplay).toBe(true);
    expect(MemoryApiSchema.parse({ ...valid, canDisplay: false }).canDisplay).toBe(false);
  });

  it("refuses a canDisplay that is not a boolean in the API", () => {
    expect(apiErrors({ ...valid, canDisplay: "yes" }, "canDisplay")).toEqual(["canDisplay must be true or false"]);
  });
});

describe("the guest book HTML form schema", () => {
  function formData(fields: Record<string, string>) {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    return data;
  }

  const formFields = { name: "Aunt May", email: "may@example.com", phone: "", message: "We will always remember." };

  it("reads a ticked checkbox (canDisplay=on) as true", () => {
    const submission = parseWithZod(formData({ ...formFields, canDisplay: "on" }), { schema: MemoryFormSchema });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.canDisplay).toBe(true);
  });

  it("reads an absent checkbox as false", () => {
    const submission = parseWithZod(formData(formFields), { schema: MemoryFormSchema });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.canDisplay).toBe(false);
    expect(submission.value.phone).toBeUndefined();
  });

  it("reports the same field messages as the API", () => {
    const submission = parseWithZod(formData({ name: "  ", email: "nope", message: "short" }), { schema: MemoryFormSchema });
    expect(submission.status).toBe("error");
    const reply = submission.reply();
    expect(reply.error).toMatchObject({
      name: ["Name is required"],
      email: ["Valid email is required"],
      message: ["Message must be at least 10 characters"],
    });
  });
});
