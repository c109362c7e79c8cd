// The house's import directions (STYLE.md) are checked by the linter: these
// cases show each rule refuses the import it is there for, and lets the
// right one through.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

describe("import boundaries", () => {
  it.each([
    [
      "app/components/Example.tsx",
      'import type { AdminMemory } from "~/models/memory.server";\nexport type X = AdminMemory;',
      /never a \.server module/,
    ],
    [
      "app/media/example.server.ts",
      'import { getUpload } from "~/models/upload.server";\nexport const x = getUpload;',
      /the models call them/,
    ],
    [
      "app/mail/example.server.ts",
      'import { queueMail } from "~/models/outbox.server";\nexport const x = queueMail;',
      /the models call them/,
    ],
    ["db/example.ts", 'import { config } from "~/config.server";\nexport const x = config;', /imports nothing from app/],
    ["app/routes/example.tsx", 'import { db } from "~/db.server";\nexport const x = db;', /the models own the database/],
    ["app/routes/example.tsx", 'import { operator } from "~/auth/actor.server";\nexport const x = operator;', /never as operator\(\)/],
    ["app/utils/example.server.ts", 'import { operator } from "~/auth/actor.server";\nexport const x = operator;', /never as operator\(\)/],
  ])("%s may not import upwards or around the models", async (file, code, message) => {
    expect(await restrictedImports(file, code)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ["app/components/Example.tsx", 'import type { AdminMemory } from "~/models/memory.schema";\nexport type X = AdminMemory;'],
    ["app/routes/example.tsx", 'import { listPoems } from "~/models/poem.server";\nexport const x = listPoems;'],
    ["app/models/example.server.ts", 'import { db } from "~/db.server";\nexport const x = db;'],
    ["app/routes/example.tsx", 'import type { AdminActor } from "~/auth/actor.server";\nexport type X = AdminActor;'],
  ])("%s may import what lies below it", async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
