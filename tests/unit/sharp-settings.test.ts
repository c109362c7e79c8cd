// sharp on the 512 MB box: no libvips operation cache (it kept big photos' pixels mapped after their job) and one thread.
import { describe, expect, it } from "vitest";
import { loadSharp } from "~/media/sharp.server";

describe("sharp as the server loads it", () => {
  it("keeps no cache of decoded pictures and uses one thread", async () => {
    const sharp = await loadSharp();
    const cache = sharp.cache();
    expect(cache.memory.max).toBe(0);
    expect(cache.items.max).toBe(0);
    expect(sharp.concurrency()).toBe(1);
    // Loaded once.
    expect(await loadSharp()).toBe(sharp);
  });
});
