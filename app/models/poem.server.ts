import { desc, eq } from "drizzle-orm";
import { poems, type Poem } from "../../db/schema";
import { db } from "~/db.server";

import type { PoemInput, PoemView } from "./poem.schema";

function toPoemView(poem: Poem): PoemView {
  return {
    id: poem.id,
    title: poem.title,
    author: poem.author,
    content: poem.content,
    createdAt: poem.createdAt.toISOString(),
  };
}

export function listPoems(): PoemView[] {
  return db.select().from(poems).orderBy(desc(poems.createdAt), desc(poems.id)).all().map(toPoemView);
}

/** Adds a poem; returns once it is committed (all RETURNING rows read, see submitMemory). */
export function createPoem(input: PoemInput): PoemView {
  const [row] = db
    .insert(poems)
    .values({ title: input.title, content: input.content, author: input.author ?? null })
    .returning()
    .all();
  return toPoemView(row!);
}

/** Returns false when there was no such poem. */
export function deletePoem(id: number): boolean {
  return db.delete(poems).where(eq(poems.id, id)).run().changes > 0;
}
