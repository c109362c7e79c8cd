// Each poem says when the family added it, as the spec's card has it
// ("relative created time"), in words that cannot be taken for the date of
// the poem itself. The clock is fixed: nothing here waits on the real one.
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { poems } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { PoemList } from "~/components/PoemList";
import { db } from "~/platform/db.server";
import { createPoem } from "~/poems/poem.server";
import { loader as poemsPageLoader } from "~/routes/poems";
import { addedAgo } from "~/utils/relative-time";

const NOW = Date.UTC(2026, 2, 14, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

beforeEach(() => {
  db.delete(poems).run();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe("when a poem was added", () => {
  it.each([
    [NOW - 3 * DAY, "Added 3 days ago"],
    [NOW - 2 * 60 * 60 * 1000, "Added about 2 hours ago"],
    [NOW - 20 * 1000, "Added less than a minute ago"],
    [NOW - 400 * DAY, "Added about 1 year ago"],
  ])("a poem added at %d reads %j", (createdAt, words) => {
    expect(addedAgo(new Date(createdAt).toISOString(), NOW)).toBe(words);
  });

  it("a poem with no time of its own reads 'Added recently'", () => {
    expect(addedAgo(null, NOW)).toBe("Added recently");
  });

  it("the poems page shows it under the author, before the words, measured against the loader's clock", async () => {
    const poem = createPoem({ title: "Crossing the Bar", author: "Alfred, Lord Tennyson", content: "Sunset and evening star" }, operator());
    db.$client.prepare("update poems set createdAt = ? where id = ?").run(NOW - 3 * DAY - 60 * 60 * 1000, poem.id);
    const data = await poemsPageLoader({ request: new Request("http://localhost/poems"), params: {}, context: {} } as never);
    expect(data.poems[0]!.added).toBe("Added 3 days ago");
    const html = renderToStaticMarkup(<PoemList poems={data.poems} emptyText="No poems yet." />);
    const text = html
      .replace(/<[^>]+>/g, "\n")
      .split("\n")
      .filter(Boolean);
    expect(text).toEqual(["Crossing the Bar", "By Alfred, Lord Tennyson", "Added 3 days ago", "Sunset and evening star"]);
    expect(html).toContain(`<time dateTime="${new Date(NOW - 3 * DAY - 60 * 60 * 1000).toISOString()}">Added 3 days ago</time>`);
  });
});
