import { desc, eq } from "drizzle-orm";
import { poems, type Poem } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";

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

export function getPoem(id: number): PoemView | undefined {
  const row = db.select().from(poems).where(eq(poems.id, id)).get();
  return row ? toPoemView(row) : undefined;
}

/** Adds a poem by the admin `by`; returns once it is committed. */
export function createPoem(input: PoemInput, by: Actor): PoemView {
  const row = by.commit((tx) =>
    tx
      .insert(poems)
      .values({ title: input.title, content: input.content, author: input.author ?? null })
      .returning()
      .all(),
  )[0];
  return toPoemView(row!);
}

/** Deletes a poem for the admin `by`; returns false when there was no such poem. */
export function deletePoem(id: number, by: Actor): boolean {
  return by.commit((tx) => tx.delete(poems).where(eq(poems.id, id)).run().changes > 0);
}
