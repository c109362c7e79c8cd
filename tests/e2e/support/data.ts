// Test data goes in through the app's own model code, on the same SQLite
// file the server under test uses (see playwright.config.ts).
import { poems } from "../../../db/schema";
import { db } from "~/db.server";
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
