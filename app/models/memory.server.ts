import { and, count, desc, eq, sql } from "drizzle-orm";
import { memories, type Memory, type Status } from "../../db/schema";
import { createRateLimiter, networkKey } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { db } from "~/db.server";
import type { MemoryInput } from "./memory.schema";

export {
  GUESTBOOK_MAX_LIMIT,
  GUESTBOOK_PAGE_SIZE,
  MemoryApiSchema,
  MemoryFormSchema,
  MESSAGE_MIN_LENGTH,
  type MemoryInput,
} from "./memory.schema";


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
  bucket: "submissions",
});

export const TOO_MANY_SUBMISSIONS =
  "Many messages have been sent from your network in the last few minutes. Please wait a little while and try again.";

/** Whether this address may submit now; a family behind one router never reaches the limit. */
export function checkSubmissionAllowed(clientIp: string | undefined) {
  return submissionLimiter.check(networkKey(clientIp));
}

/** Counts one public submission (a memory or an attendance note) from this address. */
export function countSubmission(clientIp: string | undefined) {
  submissionLimiter.hit(networkKey(clientIp));
}

export function resetSubmissionLimits() {
  submissionLimiter.reset();
}

/** Stores a new memory, PENDING until the family approves it. */
export function submitMemory(input: MemoryInput, clientIp?: string): { id: number } {
  countSubmission(clientIp);
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
// Built once: the guest book page and API run this on every request.
const publicMemoriesQuery = db
  .select({ id: memories.id, name: memories.name, message: memories.message, createdAt: memories.createdAt })
  .from(memories)
  .where(and(eq(memories.status, "APPROVED"), eq(memories.canDisplay, true)))
  .orderBy(desc(memories.createdAt), desc(memories.id))
  .limit(sql.placeholder("limit"))
  .offset(sql.placeholder("offset"))
  .prepare();

export function listPublicMemories({ limit, offset }: { limit: number; offset: number }): PublicMemory[] {
  return publicMemoriesQuery.all({ limit, offset }).map(toPublicMemory);
}

/** Moderation: returns false when there is no such memory. */
export function setMemoryStatus(id: number, status: Exclude<Status, "PENDING">): boolean {
  return db.update(memories).set({ status }).where(eq(memories.id, id)).run().changes > 0;
}

/** What the administrator sees of a memory: everything, contact details included. */
export interface AdminMemory {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  canDisplay: boolean;
  status: Status;
  createdAt: string;
}

export function toAdminMemory(memory: Memory): AdminMemory {
  return {
    id: memory.id,
    name: memory.name,
    email: memory.email,
    phone: memory.phone,
    message: memory.message,
    canDisplay: memory.canDisplay,
    status: memory.status,
    createdAt: memory.createdAt.toISOString(),
  };
}

/** Memories waiting for review, oldest first (the order they arrived in). */
export function listPendingMemories(): AdminMemory[] {
  return db
    .select()
    .from(memories)
    .where(eq(memories.status, "PENDING"))
    .orderBy(memories.createdAt, memories.id)
    .all()
    .map(toAdminMemory);
}

export function countPendingMemories(): number {
  return db.select({ n: count() }).from(memories).where(eq(memories.status, "PENDING")).get()?.n ?? 0;
}

export function getMemory(id: number): AdminMemory | undefined {
  const row = db.select().from(memories).where(eq(memories.id, id)).get();
  return row ? toAdminMemory(row) : undefined;
}
