// Every test file gets its own migrated database (a copy of the template
// made once before the files run: tests/support/global-setup.ts) and storage folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { copyTemplateDatabase } from "../../scripts/template-database.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "memorial-test-"));
process.env.DATABASE_PATH = copyTemplateDatabase(path.join(dir, "memorial.db"));
process.env.STORAGE_DIR = path.join(dir, "uploads");
// Completing an upload waits for its processing (1.5 s in production) before
// answering; here as long as it takes, so results do not depend on how busy the machine is.
process.env.COMPLETION_WAIT_MS = "120000";

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
