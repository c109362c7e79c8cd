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

async function importCycles(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === "import-x/no-cycle").map((message) => message.message);
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
    [
      "app/routes/admin-example.server.ts",
      'import { operator } from "~/auth/actor.server";\nexport const x = operator;',
      /never as operator\(\)/,
    ],
    ["app/utils/example.server.ts", 'import { getMemory } from "~/models/memory.server";\nexport const x = getMemory;', /know no rules/],
    [
      "app/utils/example.server.ts",
      'import { requireAdmin } from "~/auth/session.server";\nexport const x = requireAdmin;',
      /know no rules/,
    ],
    ["app/utils/example.ts", 'import { loader } from "~/routes/gallery";\nexport const x = loader;', /know no rules/],
    [
      "app/models/example.server.ts",
      'import { pathOf } from "../../server/request-log.mjs";\nexport const x = pathOf;',
      /server\/ runs the app/,
    ],
    ["app/routes/example.tsx", 'import { wrk } from "../../server/app.mjs";\nexport const x = wrk;', /server\/ runs the app/],
  ])("%s may not import upwards or around the models", async (file, code, message) => {
    expect(await restrictedImports(file, code)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ["app/components/Example.tsx", 'import type { AdminMemory } from "~/models/memory.schema";\nexport type X = AdminMemory;'],
    ["app/routes/example.tsx", 'import { listPoems } from "~/models/poem.server";\nexport const x = listPoems;'],
    ["app/models/example.server.ts", 'import { db } from "~/db.server";\nexport const x = db;'],
    ["app/routes/example.tsx", 'import type { AdminActor } from "~/auth/actor.server";\nexport type X = AdminActor;'],
    ["app/utils/example.ts", 'import type { SiteSettings } from "~/models/settings.schema";\nexport type X = SiteSettings;'],
    ["app/routes/example.server.ts", 'import { requireAdmin } from "~/auth/session.server";\nexport const x = requireAdmin;'],
  ])("%s may import what lies below it", async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });

  it("a module may not import, through others, a module that imports it", async () => {
    // upload-budget.server imports upload-refusal.server: were that to import upload-budget back
    // (through `~/`, which the linter resolves as TypeScript does), one would run before the other was ready.
    const cycle = 'import { TOO_LARGE } from "~/models/upload-budget.server";\nexport const x = TOO_LARGE;';
    expect(await importCycles("app/models/upload-refusal.server.ts", cycle)).toEqual(["Dependency cycle detected"]);
    expect(await importCycles("app/models/example.server.ts", cycle)).toEqual([]);
  });
});
