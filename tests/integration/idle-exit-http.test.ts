// The production server with IDLE_EXIT_MINUTES, asked for /healthz every few
// seconds as Fly's health check asks for it (fly.toml: every 30 s): with
// nobody visiting, it still stops by itself. Counted as visits, the checks
// kept it up for ever, and the machine was billed around the clock. The
// smallest idle time is a minute and the server looks every 30 s, so this
// waits up to about 90 s of real time: it asserts only that the server stops,
// never when (the timing itself is tested on a fake clock in
// tests/unit/idle-exit.test.ts).
import { describe, expect, it } from "vitest";
import { get, manageSites, scratchDir, startSite } from "../support/site-process";

manageSites();

describe("stopping when idle on Fly", () => {
  it("stops with nobody visiting while the health check keeps asking", { timeout: 180_000 }, async () => {
    const site = await startSite(scratchDir(), { IDLE_EXIT_MINUTES: "1" });
    let stopped = false;
    void site.exited.then(() => (stopped = true));
    const started = Date.now();
    while (!stopped && Date.now() - started < 150_000) {
      expect(await get(site.port, "/healthz").catch(() => 200)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
    expect(stopped, site.output()).toBe(true);
    expect(await site.exited).toEqual({ code: 0, signal: null });
    expect(site.output()).toContain("Nothing asked for 1 minutes");
  });
});
