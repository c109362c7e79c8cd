import path from "node:path";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./tests/support/slow-first";

// Two projects (docs/development.md): `unit` runs in process and needs no
// build; `integration` runs against the production build, and spawns its
// server, scripts and tools. `npx vitest run` runs unit first, then integration.
export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    setupFiles: ["tests/support/setup.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    environment: "node",
    // Media tests run ffmpeg and sharp for real: generous limits, so a busy machine is slower, not failing.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The integration files known to be long start first (tests/support/slow-first.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}"],
          // Worker threads start faster than processes; each file still gets a fresh one.
          pool: "threads",
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.{ts,tsx}"],
          // A process per file (servers, signals, this process's CPU time), two at a
          // time: these files mostly wait on the processes they start.
          pool: "forks",
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
