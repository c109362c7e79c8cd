// The house's import directions (STYLE.md) are checked by the linter: these
// cases show each rule refuses the import it is there for, and lets the
// right one through.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { roomCycles, roomEdges, runtimeImports } from "../../scripts/folder-cycles.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: ROOT });

/** What the import rules say of `code` in `file`: no-restricted-imports, and no-restricted-syntax for dynamic import(). */
async function restrictedImports(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages
    .filter((message) => message.ruleId === "no-restricted-imports" || message.ruleId === "no-restricted-syntax")
    .map((message) => message.message);
}

async function importCycles(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === "import-x/no-cycle").map((message) => message.message);
}

describe("import boundaries", () => {
  it.each([
    [
      "app/components/Example.tsx",
      'import type { AdminMemory } from "~/guestbook/memory.server";\nexport type X = AdminMemory;',
      /never a \.server module/,
    ],
    ["app/components/Example.tsx", 'export const later = () => import("~/uploads/upload.server");', /never a \.server module/],
    [
      "app/platform/example.server.ts",
      'import { getUpload } from "~/uploads/upload.server";\nexport const x = getUpload;',
      /imports no domain/,
    ],
    [
      "app/platform/example.server.ts",
      'import { makeThumb } from "~/media/process.server";\nexport const x = makeThumb;',
      /imports no domain/,
    ],
    ["app/media/example.server.ts", 'import { getUpload } from "~/uploads/upload.server";\nexport const x = getUpload;', /never a domain/],
    ["app/media/example.server.ts", 'import { queueMail } from "~/mail/outbox.server";\nexport const x = queueMail;', /never a domain/],
    [
      "app/guestbook/example.server.ts",
      'import { loader } from "~/routes/gallery";\nexport const x = loader;',
      /never the other way round/,
    ],
    [
      "app/uploads/example.server.ts",
      'import { Gallery } from "~/components/Gallery";\nexport const x = Gallery;',
      /never the other way round/,
    ],
    [
      "app/mail/example.server.ts",
      'import { siteHooks } from "~/server/site-hooks.server";\nexport const x = siteHooks;',
      /nothing in the app imports it/,
    ],
    [
      "app/routes/example.tsx",
      'import { visitorGate } from "~/server/visitor-gate.server";\nexport const x = visitorGate;',
      /nothing in the app imports it/,
    ],
    ["db/example.ts", 'import { config } from "~/platform/config.server";\nexport const x = config;', /imports nothing from app/],
    ["app/routes/example.tsx", 'import { db } from "~/platform/db.server";\nexport const x = db;', /the domains own the database/],
    ["app/routes/example.tsx", 'import { operator } from "~/platform/actor.server";\nexport const x = operator;', /never as operator\(\)/],
    [
      "app/routes/admin-example.server.ts",
      'import { operator } from "~/platform/actor.server";\nexport const x = operator;',
      /never as operator\(\)/,
    ],
    [
      "app/utils/example.ts",
      'import { getMemory } from "~/guestbook/memory.server";\nexport const x = getMemory;',
      /only app\/utils and zod/,
    ],
    [
      "app/utils/example.ts",
      'import type { SiteSettings } from "~/site/settings.schema";\nexport type X = SiteSettings;',
      /only app\/utils and zod/,
    ],
    ["app/utils/example.ts", 'import { useState } from "react";\nexport const x = useState;', /only app\/utils and zod/],
    [
      "app/keepsakes/example.server.ts",
      'import { pathOf } from "../../server/request-log.mjs";\nexport const x = pathOf;',
      /server\/ runs the app/,
    ],
    ["app/routes/example.tsx", 'import { wrk } from "../../server/app.mjs";\nexport const x = wrk;', /server\/ runs the app/],
  ])("%s may not import upwards or around its room", async (file, code, message) => {
    expect(await restrictedImports(file, code)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ["app/components/Example.tsx", 'import type { AdminMemory } from "~/guestbook/memory.schema";\nexport type X = AdminMemory;'],
    ["app/routes/example.tsx", 'import { listPoems } from "~/poems/poem.server";\nexport const x = listPoems;'],
    ["app/guestbook/example.server.ts", 'import { db } from "~/platform/db.server";\nexport const x = db;'],
    ["app/uploads/example.server.ts", 'import { makeThumb } from "~/media/process.server";\nexport const x = makeThumb;'],
    ["app/media/example.server.ts", 'import { config } from "~/platform/config.server";\nexport const x = config;'],
    ["app/platform/example.server.ts", 'import { uploads } from "../../db/schema";\nexport const x = uploads;'],
    ["app/routes/example.tsx", 'import type { AdminActor } from "~/platform/actor.server";\nexport type X = AdminActor;'],
    ["app/utils/example.ts", 'import { z } from "zod";\nexport const x = z;'],
    ["app/routes/example.server.ts", 'import { requireAdmin } from "~/admins/session.server";\nexport const x = requireAdmin;'],
    ["app/server/example.server.ts", 'import { visitorGate } from "~/server/visitor-gate.server";\nexport const x = visitorGate;'],
  ])("%s may import what lies below it", async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });

  it("a module may not import, through others, a module that imports it", async () => {
    // upload-budget.server imports upload-refusal.server: were that to import upload-budget back
    // (through `~/`, which the linter resolves as TypeScript does), one would run before the other was ready.
    const cycle = 'import { TOO_LARGE } from "~/uploads/upload-budget.server";\nexport const x = TOO_LARGE;';
    expect(await importCycles("app/uploads/upload-refusal.server.ts", cycle)).toEqual(["Dependency cycle detected"]);
    expect(await importCycles("app/uploads/example.server.ts", cycle)).toEqual([]);
  });
});

describe("no cycle between the rooms of app/", () => {
  it("finds a cycle of rooms, however long, and none where the directions only go down", () => {
    expect(roomCycles(["uploads → mail", "mail → site", "site → uploads", "routes → uploads"])).toEqual([["mail", "site", "uploads"]]);
    expect(roomCycles(["routes → uploads", "uploads → mail", "mail → site", "uploads → site", "site → platform"])).toEqual([]);
  });

  it("counts what runs, not what is erased: type-only imports make no direction", () => {
    const source = [
      'import type { Upload } from "~/uploads/upload.schema";',
      'import { type Memory, type Status } from "~/guestbook/memory.schema";',
      'import { queueMail, type MailToQueue } from "~/mail/outbox.server";',
      'export { content } from "~/content";',
      'const book = () => import("~/keepsakes/book/memory-book.server");',
    ].join("\n");
    expect(runtimeImports(source)).toEqual(["~/mail/outbox.server", "~/content", "~/keepsakes/book/memory-book.server"]);
  });

  it("the rooms of this app import each other in one direction only", () => {
    const edges = roomEdges(path.join(ROOT, "app"));
    expect(edges.size).toBeGreaterThan(20);
    expect(roomCycles(edges.keys())).toEqual([]);
  });
});
