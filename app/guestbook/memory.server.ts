import { and, count, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { memories, type Memory, type Status, setAsideRows } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { contentVersion, db } from "~/platform/db.server";
import { encodeCursor, newerThan, olderThan, toListPage, type ListPage, type PageCursor } from "~/platform/page-cursor.server";
import { serverForm } from "~/platform/form-schema.server";
import { Refusal } from "~/platform/refusal.server";
import { ONLY_FAMILY_UNDOES } from "~/admins/roles";
import { queueMemoryPublishedMail, queueNewMemoryMail } from "~/mail/notifications.server";
import { mailEnabled } from "~/mail/outbox.server";
import { DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";
import { MemoryFormSchema, type AdminMemory, type MemoryInput, type MemoryPatch, type PublicMemory } from "./memory.schema";
import {
  countSubmission,
  requireSubmissionAllowed,
  RESUBMISSION_WINDOW_MS,
  type SubmissionSource,
} from "~/platform/submission-limit.server";

const recentCopyQuery = db
  .select({ id: memories.id })
  .from(memories)
  .where(
    and(
      eq(memories.status, "PENDING"),
      gt(memories.createdAt, sql.placeholder("since")),
      eq(memories.name, sql.placeholder("name")),
      eq(memories.email, sql.placeholder("email")),
      eq(memories.message, sql.placeholder("message")),
    ),
  )
  .orderBy(desc(memories.id))
  .limit(1)
  .prepare();

/**
 * Stores a new memory, PENDING until the family approves it. A visitor's
 * submission (`source` given) counts against their network's allowance and
 * is refused with a 429 past it. Returns only once the row is committed: the
 * RETURNING rows are read to the end, because reading just the first one
 * would let SQLite report a failed commit (a full disk) to nobody. The same
 * memory sent again within RESUBMISSION_WINDOW_MS answers with the first one.
 * `language` is the visitor's (their e-mails are written in it).
 */
export function submitMemory(input: MemoryInput, source?: SubmissionSource, language: Language = DEFAULT_LANGUAGE): { id: number } {
  // The same memory sent again (Back and Send, a double tap on a slow phone) is already kept.
  const copy = recentCopyQuery.get({
    name: input.name,
    email: input.email,
    message: input.message,
    since: Date.now() - RESUBMISSION_WINDOW_MS,
  });
  if (copy) return { id: copy.id };
  if (source) requireSubmissionAllowed(source);
  // The e-mail to the family is committed with the memory, and sent after: it never slows or fails the visitor.
  const row = db.transaction(
    (tx) => {
      const [inserted] = tx
        .insert(memories)
        .values({
          name: input.name,
          email: input.email,
          phone: input.phone ?? null,
          message: input.message,
          canDisplay: input.canDisplay,
          notifyWhenPublished: mailEnabled() && (input.notifyWhenPublished ?? false),
          language,
        })
        .returning({ id: memories.id })
        .all();
      queueNewMemoryMail(tx, { id: inserted!.id, name: input.name, message: input.message, canDisplay: input.canDisplay });
      return inserted!;
    },
    { behavior: "immediate" },
  );
  if (source) countSubmission(source);
  return row;
}

function toPublicMemory(memory: Pick<Memory, "id" | "name" | "message" | "createdAt">): PublicMemory {
  return {
    id: memory.id,
    name: memory.name,
    message: memory.message,
    createdAt: memory.createdAt.toISOString(),
  };
}

// Built once: the guest book page and API run this on every request. Without
// a cursor it starts past the newest possible one, so one statement serves both.
const publicMemoriesQuery = db
  .select({ id: memories.id, name: memories.name, message: memories.message, createdAt: memories.createdAt })
  .from(memories)
  .where(
    and(
      eq(memories.status, "APPROVED"),
      eq(memories.canDisplay, true),
      olderThan(memories.createdAt, memories.id, { createdAt: sql.placeholder("beforeAt"), id: sql.placeholder("beforeId") }),
    ),
  )
  .orderBy(desc(memories.createdAt), desc(memories.id))
  .limit(sql.placeholder("limit"))
  .offset(sql.placeholder("offset"))
  .prepare();

const NEWEST: PageCursor = { createdAt: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };

/**
 * The newest page, which nearly every reader of the guest book (page or API)
 * asks for: kept while the content version stands (any write visitors may
 * see moves it, from this process or another, as for the render cache), so
 * a page rendered afresh does not read the same ten memories again.
 */
let newestPage: { version: string; limit: number; page: ListPage<PublicMemory> } | undefined;

/**
 * Approved memories the author allowed us to show, newest first: `limit` of
 * them after the `before` cursor (a page that ended there) or, as the spec's
 * API has it, after skipping `offset`. A full page ends with the cursor to
 * continue from.
 */
export function listPublicMemories({
  limit,
  offset = 0,
  before = NEWEST,
}: {
  limit: number;
  offset?: number;
  before?: PageCursor;
}): ListPage<PublicMemory> {
  const newest = offset === 0 && before === NEWEST;
  const version = newest ? contentVersion() : undefined;
  let page = newestPage?.version === version && newestPage?.limit === limit ? newestPage?.page : undefined;
  if (!page) {
    page = toListPage(publicMemoriesQuery.all({ limit, offset, beforeAt: before.createdAt, beforeId: before.id }), limit, toPublicMemory);
    if (version !== undefined) newestPage = { version, limit, page };
  }
  // A copy: callers may add to the list they are given, never to the one kept.
  return { ...page, items: [...page.items] };
}

/** Only what visitors have seen can be taken back: unpublishing anything else is refused. */
export const ONLY_PUBLISHED_CAN_BE_HIDDEN = "Only a published memory can be unpublished.";

/**
 * Changes a memory for the admin `by`: its status (approve, reject, or
 * unpublish to HIDDEN, which only a published memory can be), its name or
 * message (a correction), or both, in one commit. The first correction
 * keeps what the visitor sent (originalName, originalMessage); every one
 * records who made it and when. A helper's rejection sets the memory aside
 * (kept whole for the family, who alone can publish or unpublish it again);
 * any other status clears it. Returns the memory as it now is, or
 * undefined when there is no such memory.
 */
export function updateMemory(id: number, change: MemoryPatch, by: Actor, now = Date.now()): AdminMemory | undefined {
  const row = by.commit((tx) => {
    const current = tx.select().from(memories).where(eq(memories.id, id)).get();
    if (!current) return undefined;
    const status = statusChange(current, change.status, by);
    const name = change.name ?? current.name;
    const message = change.message ?? current.message;
    const corrected = name !== current.name || message !== current.message;
    if (!status && !corrected) return current;
    // The one e-mail its author asked for, the first time the family publishes it.
    const tellAuthor = status === "APPROVED" && current.notifyWhenPublished && !current.publishedNoticeAt;
    if (tellAuthor) queueMemoryPublishedMail(tx, { id, name, email: current.email, canDisplay: current.canDisplay }, now);
    // All RETURNING rows are read, so a failed commit throws instead of passing unseen.
    return tx
      .update(memories)
      .set({
        ...(status
          ? { status, setAside: status === "REJECTED" && by.role === "helper", moderatedBy: by.username, moderatedAt: new Date(now) }
          : {}),
        ...(corrected
          ? {
              name,
              message,
              originalName: current.originalName ?? current.name,
              originalMessage: current.originalMessage ?? current.message,
              editedBy: by.username,
              editedAt: new Date(now),
            }
          : {}),
        ...(tellAuthor ? { publishedNoticeAt: new Date(now) } : {}),
      })
      .where(eq(memories.id, id))
      .returning()
      .all()[0];
  });
  return row ? toAdminMemory(row) : undefined;
}

/**
 * The status a change makes of `current` for `by`, or undefined for none. A
 * helper undoes no rejection (the family decides: 403), and rejecting what
 * is already rejected changes nothing for her (a family's rejection stays
 * the family's). Only a published memory can be unpublished, or one set
 * aside, by the family.
 */
function statusChange(current: Memory, status: MemoryPatch["status"], by: Actor): MemoryPatch["status"] {
  if (!status || status === current.status) return status === "REJECTED" && by.role === "helper" ? undefined : status;
  if (current.status === "REJECTED" && by.role === "helper") throw new Refusal(403, "status", ONLY_FAMILY_UNDOES);
  if (status === "HIDDEN" && current.status !== "APPROVED" && !current.setAside)
    throw new Refusal(409, "status", ONLY_PUBLISHED_CAN_BE_HIDDEN);
  return status;
}

/** Moderation by the admin `by` (their username is kept with when): returns false when there is no such memory. */
export function setMemoryStatus(id: number, status: Exclude<Status, "PENDING">, by: Actor, now = Date.now()): boolean {
  return updateMemory(id, { status }, by, now) !== undefined;
}

/**
 * Deletes a memory for good, for the family admin `by`; a helper's delete
 * sets it aside instead (rejected, kept whole for the family to undo).
 * Returns false when there was no such memory.
 */
export function deleteMemory(id: number, by: Actor): boolean {
  if (by.role === "helper") return setMemoryStatus(id, "REJECTED", by);
  return by.commit((tx) => tx.delete(memories).where(eq(memories.id, id)).run().changes > 0);
}

function toAdminMemory(memory: Memory): AdminMemory {
  return {
    id: memory.id,
    name: memory.name,
    email: memory.email,
    phone: memory.phone,
    message: memory.message,
    canDisplay: memory.canDisplay,
    status: memory.status,
    setAside: memory.setAside,
    createdAt: memory.createdAt.toISOString(),
    moderatedBy: memory.moderatedBy,
    moderatedAt: memory.moderatedAt?.toISOString() ?? null,
    originalName: memory.originalName,
    originalMessage: memory.originalMessage,
    editedBy: memory.editedBy,
    editedAt: memory.editedAt?.toISOString() ?? null,
    notifyWhenPublished: memory.notifyWhenPublished,
    publishedNoticeAt: memory.publishedNoticeAt?.toISOString() ?? null,
  };
}

/** What the Published view lists: what visitors see, and what the family has unpublished (it can be published again). */
const PUBLISHED_STATUSES = ["APPROVED", "HIDDEN"] as const satisfies Status[];
const PUBLISHED_PAGE_SIZE = 20;

/**
 * Published and unpublished memories, newest first, for the admin:
 * `limit` after the `before` cursor, only those whose name holds `search`
 * (any case) when given. A full page ends with the cursor to continue from.
 */
export function listPublishedMemories({
  search,
  before,
  limit = PUBLISHED_PAGE_SIZE,
}: {
  search?: string;
  before?: PageCursor;
  limit?: number;
}): ListPage<AdminMemory> {
  const rows = db
    .select()
    .from(memories)
    .where(
      and(
        inArray(memories.status, PUBLISHED_STATUSES),
        search ? sql`instr(lower(${memories.name}), lower(${search})) > 0` : undefined,
        before ? olderThan(memories.createdAt, memories.id, before) : undefined,
      ),
    )
    .orderBy(desc(memories.createdAt), desc(memories.id))
    .limit(limit)
    .all();
  return toListPage(rows, limit, toAdminMemory);
}

/** Memories waiting for review, oldest first (the order they arrived in). */
export function listPendingMemories(): AdminMemory[] {
  return db.select().from(memories).where(eq(memories.status, "PENDING")).orderBy(memories.createdAt, memories.id).all().map(toAdminMemory);
}

/** How many waiting memories the Pending tab shows at once: enough to work through, never a thousand rows to render. */
const PENDING_PAGE_SIZE = 50;

/**
 * A page of the memories waiting for the family, oldest first, continuing
 * after `after` (the last one shown), and how many wait in all.
 */
export function listPendingMemoriesPage(after?: PageCursor): { memories: AdminMemory[]; next: string | null; total: number } {
  const rows = db
    .select()
    .from(memories)
    .where(and(eq(memories.status, "PENDING"), after ? newerThan(memories.createdAt, memories.id, after) : undefined))
    .orderBy(memories.createdAt, memories.id)
    .limit(PENDING_PAGE_SIZE + 1)
    .all();
  const shown = rows.slice(0, PENDING_PAGE_SIZE);
  const last = shown.at(-1);
  return {
    memories: shown.map(toAdminMemory),
    next: last && rows.length > PENDING_PAGE_SIZE ? encodeCursor({ createdAt: last.createdAt.getTime(), id: last.id }) : null,
    total: countPendingMemories(),
  };
}

/** Memories helpers set aside, the newest set aside first: the family's Set aside view. */
export function listSetAsideMemories(): AdminMemory[] {
  return db
    .select()
    .from(memories)
    .where(setAsideRows(memories))
    .orderBy(desc(memories.moderatedAt), desc(memories.id))
    .all()
    .map(toAdminMemory);
}

export function countSetAsideMemories(): number {
  return db.select({ n: count() }).from(memories).where(setAsideRows(memories)).get()?.n ?? 0;
}

export function countPendingMemories(): number {
  return db.select({ n: count() }).from(memories).where(eq(memories.status, "PENDING")).get()?.n ?? 0;
}

export function getMemory(id: number): AdminMemory | undefined {
  const row = db.select().from(memories).where(eq(memories.id, id)).get();
  return row ? toAdminMemory(row) : undefined;
}

/** The guest book form's schema on the server: its parser and its fields' HTML attributes. */
export const memoryForm = serverForm(MemoryFormSchema);
