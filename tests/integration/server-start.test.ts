// What a person starting the server reads when it cannot start: one plain
// sentence and exit code 1, never a stack trace.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../../scripts/site-process.mjs";
import { manageSites, runServer } from "../support/site-process";

manageSites();

describe("starting the server", () => {
  it("on a port another program holds: one sentence saying so, and exit code 1", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, resolve));
    try {
      const { code, output } = await runServer({ PORT: String(port) });
      expect(code).toBe(1);
      expect(output).toContain(`Port ${port} is already in use: stop the other server or set PORT.`);
      expect(output).not.toMatch(/EADDRINUSE|^\s+at /m);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
