// Every test file gets its own freshly migrated database and storage folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "memorial-test-"));
process.env.DATABASE_PATH = path.join(dir, "memorial.db");
process.env.STORAGE_DIR = path.join(dir, "uploads");

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
