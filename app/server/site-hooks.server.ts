import type { IncomingMessage, ServerResponse } from "node:http";
import { prepareAdmins, startBackgroundWork, stopBackgroundWork } from "~/server/background.server";
import { config } from "~/platform/config.server";
import { closeDatabase, contentVersion } from "~/platform/db.server";
import { handleDiskPut } from "~/server/disk-put.server";
import { upsertAdmin } from "~/admins/admin.server";
import { BOOK_PROGRESS } from "~/keepsakes/book/memory-book.server";
import { writeMemoryBook } from "~/keepsakes/book/pdf.server";
import { mailDueWithin } from "~/mail/schedule.server";
import { processingPending } from "~/uploads/upload-processing.server";
import { renderCacheVariant, renderCacheVisit, type CacheVisit } from "~/server/render-cache.server";
import { replicating } from "~/keepsakes/replication.server";
import { visitorGate } from "~/server/visitor-gate.server";

// Everything the Node server (server/index.mjs) and the admin CLI
// (scripts/admin.mjs) take from the build besides Remix's own routes: one
// typed object, exported by app/entry.server.tsx as `siteHooks`.

/** A Node response with what the handlers before it found (Express's `res.locals`). */
type LocalsResponse = ServerResponse & { locals: Record<string, unknown> };

/** A handler in Express's shape that needs none of Express's additions. */
type NodeMiddleware = (req: IncomingMessage, res: LocalsResponse, next: (error?: unknown) => void) => unknown;

export interface RenderCacheHooks {
  /** The version of everything visitors can see; a copy made under another is never served. */
  contentVersion(): string;
  /** What besides the address changes the answer, after the visitor gate; null: this visitor's own answer. */
  variantOf(req: IncomingMessage, res: LocalsResponse): Promise<string | null>;
  /** For the fast path ahead of Express: the variant, the gate's robots header and the version, where the gate lets everyone in. */
  visitOf(req: IncomingMessage): Promise<CacheVisit | null>;
  /**
   * Whether a shared cache (a CDN) may keep a public page: only when the
   * site's address is fixed by PUBLIC_URL. Otherwise pages name the host the
   * request gave (og:url, the calendar link), which a shared cache does not
   * key on (X-Forwarded-Host).
   */
  sharedCachesAllowed(): boolean;
}

export interface SiteHooks {
  /** The family's privacy setting, ahead of everything that answers (docs/decisions/010-visitor-gate.md). */
  visitorGate: NodeMiddleware;
  /** Signed uploads to the local disk, streamed from the socket to the file. */
  handleDiskPut: NodeMiddleware;
  /** Before the first answer: the configured admin exists, or the setup code is printed. */
  prepareAdmins(): Promise<void>;
  /** Once listening: session sweeping, the e-mail sender, media maintenance and the processing queue. */
  startBackgroundWork(): Promise<void>;
  /** Whether media work (a photo's copies, a video's web copy) is running or waiting in the queue. */
  mediaWorkPending(): boolean;
  /**
   * Whether e-mail (a message waiting, a daily summary, a reminder) is due
   * within `ms` or overdue: the server does not stop itself when idle then
   * (docs/decisions/034-waking-on-time.md).
   */
  mailDueWithin(ms: number): boolean;
  /** On shutdown, before the database closes: the e-mail on its way is finished and recorded. */
  stopBackgroundWork(): Promise<void>;
  /** On shutdown, after the last answer. */
  closeDatabase(): void;
  /**
   * The server runs under Litestream: Litestream alone checkpoints the
   * database from now on, and the admin panel reads how replication goes from its metrics.
   */
  replicating: typeof replicating;
  /** `npm run admin`: creates or resets an admin. */
  upsertAdmin: typeof upsertAdmin;
  renderCache: RenderCacheHooks;
  /** server/memory-book-process.mjs: makes a memory book in its own process, its progress on stdout after this prefix. */
  writeMemoryBook: typeof writeMemoryBook;
  bookProgressPrefix: string;
}

export const siteHooks: SiteHooks = {
  visitorGate,
  handleDiskPut,
  prepareAdmins,
  startBackgroundWork,
  stopBackgroundWork,
  mediaWorkPending: processingPending,
  mailDueWithin: (ms) => mailDueWithin(ms),
  closeDatabase,
  replicating,
  upsertAdmin,
  writeMemoryBook,
  bookProgressPrefix: BOOK_PROGRESS,
  renderCache: {
    contentVersion,
    variantOf: renderCacheVariant,
    visitOf: renderCacheVisit,
    sharedCachesAllowed: () => config.PUBLIC_URL !== undefined,
  },
};
