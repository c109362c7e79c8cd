// A tool run with a CPU budget (app/media/run-tool.server.ts) is stopped by
// the CPU seconds it used, never the clock. In a process of its own (the
// integration project's forks): the test reads this process's CPU time, which
// in a worker thread would count every other test file's work too.
import { describe, expect, it } from "vitest";
import { CpuBudgetExceeded } from "~/media/cpu-budget.server";
import { runTool, toolEnvironment } from "~/media/run-tool.server";

describe("a tool with a CPU budget", () => {
  it("is stopped once it has used its CPU seconds, however long that takes on the clock", async () => {
    const started = process.cpuUsage();
    await expect(runTool("sh", ["-c", "while :; do :; done"], { cpuSeconds: 0.5 })).rejects.toBeInstanceOf(CpuBudgetExceeded);
    // Our own process stayed out of it.
    const own = process.cpuUsage(started);
    expect((own.user + own.system) / 1e6).toBeLessThan(0.5);
  });

  it("that finishes within it resolves with what it printed", async () => {
    await expect(runTool("sh", ["-c", "echo done"], { cpuSeconds: 5 })).resolves.toBe("done\n");
  });

  it("runs without the allocator preloaded into node", () => {
    const env = toolEnvironment({ PATH: "/usr/bin", LD_PRELOAD: "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2" });
    expect(env).toEqual({ PATH: "/usr/bin", MALLOC_ARENA_MAX: "2" });
  });
});
