// Every test file gets its own freshly migrated database and storage folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "memorial-test-"));
process.env.DATABASE_PATH = path.join(dir, "memorial.db");
process.env.STORAGE_DIR = path.join(dir, "uploads");
// Completing an upload waits for its processing (1.5 s in production) before
// answering; here as long as it takes, so results do not depend on how busy the machine is.
process.env.COMPLETION_WAIT_MS = "120000";

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
