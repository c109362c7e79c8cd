// Test data goes in through the app's own model code, on the same SQLite
// file the server under test uses (see playwright.config.ts).
import { desc } from "drizzle-orm";
import { memories, poems, type Status } from "../../../db/schema";
import { db } from "~/db.server";
import { MemoryApiSchema, setMemoryStatus, submitMemory } from "~/models/memory.server";
import { createPoem, type PoemInput } from "~/models/poem.server";

export function removeAllPoems() {
  db.delete(poems).run();
}

export function addPoem(input: Partial<PoemInput> = {}) {
  return createPoem({
    title: input.title ?? `A poem ${Math.random().toString(36).slice(2, 8)}`,
    content: input.content ?? "Line one\nLine two",
    author: input.author,
  });
}

export function removeAllMemories() {
  db.delete(memories).run();
}

/** A memory as a visitor would submit it, then moderated to `status`. */
export function addMemory(
  input: { name?: string; message?: string; canDisplay?: boolean; status?: Status; email?: string; phone?: string } = {},
) {
  const { id } = submitMemory(
    MemoryApiSchema.parse({
      name: input.name ?? "Test Visitor",
      email: input.email ?? "visitor@example.com",
      phone: input.phone,
      message: input.message ?? "A memory long enough to keep.",
      canDisplay: input.canDisplay ?? true,
    }),
  );
  if (input.status && input.status !== "PENDING") setMemoryStatus(id, input.status);
  return id;
}

export function latestMemory() {
  return db.select().from(memories).orderBy(desc(memories.id)).limit(1).get();
}
