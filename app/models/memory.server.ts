import { and, desc, eq } from "drizzle-orm";
import { memories, type Memory } from "../../db/schema";
import { createRateLimiter } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { db } from "~/db.server";
import type { MemoryInput } from "./memory.schema";

export { MemoryApiSchema, MemoryFormSchema, MESSAGE_MIN_LENGTH, type MemoryInput } from "./memory.schema";

export const GUESTBOOK_PAGE_SIZE = 10;
export const GUESTBOOK_MAX_LIMIT = 50;

/** What visitors and the public API see of a memory: never the email or phone. */
export interface PublicMemory {
  id: number;
  name: string;
  message: string;
  createdAt: string;
}


const submissionLimiter = createRateLimiter({
  limit: config.SUBMISSIONS_PER_10_MINUTES,
  windowMs: 10 * 60 * 1000,
});

export const TOO_MANY_SUBMISSIONS =
  "Many messages have been sent from your network in the last few minutes. Please wait a little while and try again.";

/** Whether this address may submit now; a family behind one router never reaches the limit. */
export function checkSubmissionAllowed(clientIp: string | undefined) {
  return submissionLimiter.check(clientIp ?? "unknown");
}

export function resetSubmissionLimits() {
  submissionLimiter.reset();
}

/** Stores a new memory, PENDING until the family approves it. */
export function submitMemory(input: MemoryInput, clientIp?: string): { id: number } {
  submissionLimiter.hit(clientIp ?? "unknown");
  const row = db
    .insert(memories)
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      message: input.message,
      canDisplay: input.canDisplay,
    })
    .returning({ id: memories.id })
    .get();
  return row;
}

export function toPublicMemory(memory: Pick<Memory, "id" | "name" | "message" | "createdAt">): PublicMemory {
  return {
    id: memory.id,
    name: memory.name,
    message: memory.message,
    createdAt: memory.createdAt.toISOString(),
  };
}

/** Approved memories the author allowed us to show, newest first. */
export function listPublicMemories({ limit, offset }: { limit: number; offset: number }): PublicMemory[] {
  return db
    .select({ id: memories.id, name: memories.name, message: memories.message, createdAt: memories.createdAt })
    .from(memories)
    .where(and(eq(memories.status, "APPROVED"), eq(memories.canDisplay, true)))
    .orderBy(desc(memories.createdAt), desc(memories.id))
    .limit(limit)
    .offset(offset)
    .all()
    .map(toPublicMemory);
}
