import path from "node:path";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}"],
    setupFiles: ["tests/support/setup.ts"],
    environment: "node",
    pool: "forks",
    // Media tests run ffmpeg and sharp for real: generous limits, so a busy machine is slower, not failing.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
