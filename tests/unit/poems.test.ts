import { beforeEach, describe, expect, it } from "vitest";
import { poems } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { PoemInput } from "~/poems/poem.schema";
import { createPoem, deletePoem, listPoems } from "~/poems/poem.server";
import { loader as apiPoemsLoader } from "~/routes/api.poems";
import { loader as healthzLoader } from "~/routes/healthz";
import { loader as poemsPageLoader } from "~/routes/poems";

beforeEach(() => {
  db.delete(poems).run();
});

/** Adds a poem the way the admin form does; the author is optional. */
function addPoem(fields: { title: string; content: string; author?: string }) {
  return createPoem({ author: undefined, ...fields }, operator());
}

describe("the poems page", () => {
  it("lists poems newest first", async () => {
    const first = addPoem({ title: "Morning", content: "First light" });
    const second = addPoem({ title: "Evening", content: "Last light", author: "A friend" });
    const data = await poemsPageLoader({ request: new Request("http://localhost/poems"), params: {}, context: {} } as never);
    expect(data.poems.map((p) => p.id)).toEqual([second.id, first.id]);
    expect(data.poems.map((p) => p.title)).toEqual(["Evening", "Morning"]);
  });

  it("orders by creation time, not by insertion order", async () => {
    const older = addPoem({ title: "Older", content: "x" });
    const newer = addPoem({ title: "Newer", content: "y" });
    // Make the first poem the most recent one.
    db.$client.prepare("update poems set createdAt = createdAt + 60000 where id = ?").run(older.id);
    const data = await poemsPageLoader({ request: new Request("http://localhost/poems"), params: {}, context: {} } as never);
    expect(data.poems.map((p) => p.id)).toEqual([older.id, newer.id]);
  });

  it("shows no poems when none have been added", async () => {
    const data = await poemsPageLoader({ request: new Request("http://localhost/poems"), params: {}, context: {} } as never);
    expect(data.poems).toEqual([]);
  });
});

describe("GET /api/poems", () => {
  it("answers with a JSON array of poems, newest first", async () => {
    const a = addPoem({ title: "Roses", content: "Line one\nLine two\n\nLine four" });
    const b = addPoem({ title: "Rain", content: "Soft", author: "Aunt May" });

    const response = await apiPoemsLoader();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);

    const body = (await response.json()) as unknown as Record<string, unknown>[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((p) => p.id)).toEqual([b.id, a.id]);
    for (const poem of body) {
      expect(Object.keys(poem).sort()).toEqual(["author", "content", "createdAt", "id", "title"]);
      expect(typeof poem.createdAt).toBe("string");
      const iso = poem.createdAt as string;
      expect(new Date(iso).toISOString()).toBe(iso);
      expect(Math.abs(new Date(iso).getTime() - Date.now())).toBeLessThan(60_000);
    }
    expect(body[0]).toMatchObject({ title: "Rain", author: "Aunt May", content: "Soft" });
    expect(body[1]).toMatchObject({ title: "Roses", author: null, content: "Line one\nLine two\n\nLine four" });
  });

  it("is not cached, so a newly added poem shows up at once", async () => {
    const response = await apiPoemsLoader();
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers [] when there are no poems", async () => {
    const response = await apiPoemsLoader();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });
});

describe("poem storage", () => {
  it("stores a poem without an author as null", () => {
    const poem = addPoem({ title: "Untitled", content: "words" });
    expect(poem.author).toBeNull();
    const stored = db.select().from(poems).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.author).toBeNull();
  });

  it("deletes a poem once, then reports it is gone", () => {
    const poem = addPoem({ title: "Brief", content: "A short one" });
    expect(deletePoem(poem.id, operator())).toBe(true);
    expect(listPoems()).toEqual([]);
    expect(deletePoem(poem.id, operator())).toBe(false);
  });

  it("only deletes the poem asked for", () => {
    const keep = addPoem({ title: "Keep", content: "stay" });
    const drop = addPoem({ title: "Drop", content: "go" });
    expect(deletePoem(drop.id, operator())).toBe(true);
    expect(listPoems().map((p) => p.id)).toEqual([keep.id]);
  });
});

describe("poem input validation", () => {
  function messages(input: unknown): string[] {
    const result = PoemInput.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => i.message);
  }

  it("refuses a blank title with 'Title is required'", () => {
    expect(messages({ title: "   ", content: "words" })).toEqual(["Title is required"]);
    expect(messages({ content: "words" })).toEqual(["Title is required"]);
  });

  it("refuses blank content with 'Content is required'", () => {
    expect(messages({ title: "A title", content: " \n\t " })).toEqual(["Content is required"]);
    expect(messages({ title: "A title" })).toEqual(["Content is required"]);
  });

  it("trims the title, author and content", () => {
    const parsed = PoemInput.parse({ title: "  Roses  ", author: "  May ", content: "\n Line one\nLine two \n" });
    expect(parsed).toEqual({ title: "Roses", author: "May", content: "Line one\nLine two" });
  });

  it("treats a blank author as no author", () => {
    const parsed = PoemInput.parse({ title: "T", author: "   ", content: "C" });
    expect(parsed.author).toBeUndefined();
  });
});

describe("health check", () => {
  it("answers 200 ok while the database is reachable", async () => {
    const response = await healthzLoader();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
