import { createHash } from "node:crypto";
import { and, asc, count, desc, eq, isNotNull, ne, or } from "drizzle-orm";
import { candles, type Candle, setAsideRows } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { serverForm } from "~/platform/form-schema.server";
import { createRateLimiter, networkKey } from "~/platform/rate-limit.server";
import { countSubmission, requireSubmissionAllowed, type SubmissionSource } from "~/platform/submission-limit.server";
import { getSiteSettings } from "~/site/settings.server";
import { Refusal } from "~/platform/refusal.server";
import { ONLY_FAMILY_UNDOES } from "~/admins/roles";
import { formatIsoDate } from "~/utils/time";
import { CandleFormSchema, type AdminCandle, type CandleInput, type CandleSummary, type PublicCandle } from "./candle.schema";

// Candles: lit by anyone, counted once per visitor and day, a name or a line
// shown only once the family has seen it.

/**
 * Candles counted from one network in a day. A visitor is their browser (a
 * cookie), but a script can drop its cookies: this bounds what it can add to
 * the count. High enough for a family on one home's Wi-Fi; a candle past it
 * is still kept (and its words still go to the family), only not counted.
 */
export const COUNTED_PER_NETWORK_PER_DAY = 20;
const countedFromNetwork = createRateLimiter({
  limit: COUNTED_PER_NETWORK_PER_DAY,
  windowMs: 24 * 60 * 60 * 1000,
  bucket: "candles-counted",
});

/** How many published candles with words the pages and GET /api/candles show. */
const RECENT_CANDLES = 20;

/** Forgets which networks' candles were counted (tests). */
export function resetCandleCounts() {
  countedFromNetwork.reset();
}

/** Who lights a candle: their network (for the limits) and their browser's own random id (its cookie). */
export interface CandleSource extends SubmissionSource {
  visitorId: string;
}

export interface LitCandle {
  /** Whether it is this visitor's first counted candle today. */
  counted: boolean;
  /** Wordless candles are shown at once; a name or a line waits for the family. */
  status: "APPROVED" | "PENDING";
  /** The count visitors see now. */
  count: number;
}

/** The visitor as stored: a hash of their browser's random id, never the id or an address. */
const visitorHash = (visitorId: string) => createHash("sha256").update(`candle-visitor:${visitorId}`).digest("hex");

const litCandles = and(eq(candles.counted, true), eq(candles.status, "APPROVED"));

/** "37 candles lit": the visitors' first candles of each day, published. */
function countLitCandles(): number {
  return db.select({ n: count() }).from(candles).where(litCandles).get()?.n ?? 0;
}

const withWords = or(isNotNull(candles.name), isNotNull(candles.message));

/**
 * Lights a candle. Every candle counts against the network's allowance of
 * submissions (a 429 refusal past it), so one stranger cannot fill the
 * family's queue; it is counted only when this visitor has no counted candle
 * today and their network has fewer than COUNTED_PER_NETWORK_PER_DAY.
 */
export function lightCandle(input: CandleInput, source: CandleSource, now = Date.now()): LitCandle {
  requireSubmissionAllowed(source);
  const visitor = visitorHash(source.visitorId);
  const network = networkKey(source.clientIp);
  const day = formatIsoDate(now, getSiteSettings().timeZone);
  const name = input.name ?? null;
  const message = input.message ?? null;
  const status = name || message ? "PENDING" : "APPROVED";
  const counted = db.transaction(
    (tx) => {
      const countedToday = tx
        .select({ id: candles.id })
        .from(candles)
        // A counted candle the family rejected no longer stands for the visitor's day.
        .where(and(eq(candles.visitor, visitor), eq(candles.day, day), eq(candles.counted, true), ne(candles.status, "REJECTED")))
        .get();
      const counts = !countedToday && countedFromNetwork.check(network, now).allowed;
      // All RETURNING rows are read, so a failed commit throws instead of passing unseen.
      tx.insert(candles)
        .values({ name, message, status, counted: counts, visitor, day, createdAt: new Date(now) })
        .returning({ id: candles.id })
        .all();
      return counts;
    },
    { behavior: "immediate" },
  );
  if (counted) countedFromNetwork.hit(network, now);
  countSubmission(source);
  return { counted, status, count: countLitCandles() };
}

const toPublicCandle = (candle: Pick<Candle, "name" | "message" | "createdAt">): PublicCandle => ({
  name: candle.name,
  message: candle.message,
  createdAt: candle.createdAt.toISOString(),
});

/** The count, and the newest candles whose words the family published. Nothing pending or refused. */
export function candleSummary(limit = RECENT_CANDLES): CandleSummary {
  const recent = db
    .select({ name: candles.name, message: candles.message, createdAt: candles.createdAt })
    .from(candles)
    .where(and(eq(candles.status, "APPROVED"), withWords))
    .orderBy(desc(candles.createdAt), desc(candles.id))
    .limit(limit)
    .all();
  return { count: countLitCandles(), recent: recent.map(toPublicCandle) };
}

/** For the memory book and the keepsake: the count, and every published name and line, oldest first. */
export function publishedCandles(): { count: number; named: { name: string | null; message: string | null }[] } {
  const named = db
    .select({ name: candles.name, message: candles.message })
    .from(candles)
    .where(and(eq(candles.status, "APPROVED"), withWords))
    .orderBy(asc(candles.createdAt), asc(candles.id))
    .all();
  return { count: countLitCandles(), named };
}

function toAdminCandle(candle: Candle): AdminCandle {
  return {
    id: candle.id,
    name: candle.name,
    message: candle.message,
    status: candle.status,
    setAside: candle.setAside,
    counted: candle.counted,
    createdAt: candle.createdAt.toISOString(),
    moderatedBy: candle.moderatedBy,
    moderatedAt: candle.moderatedAt?.toISOString() ?? null,
  };
}

/** How many waiting candles the Pending tab and the API list at once, oldest first. */
const PENDING_CANDLES_SHOWN = 50;

/** Candles with words waiting for the family, oldest first, and how many wait in all. */
export function listPendingCandles(): { candles: AdminCandle[]; total: number } {
  const rows = db
    .select()
    .from(candles)
    .where(eq(candles.status, "PENDING"))
    .orderBy(asc(candles.createdAt), asc(candles.id))
    .limit(PENDING_CANDLES_SHOWN)
    .all();
  const total = db.select({ n: count() }).from(candles).where(eq(candles.status, "PENDING")).get()?.n ?? 0;
  return { candles: rows.map(toAdminCandle), total };
}

export function getCandle(id: number): AdminCandle | undefined {
  const row = db.select().from(candles).where(eq(candles.id, id)).get();
  return row ? toAdminCandle(row) : undefined;
}

/**
 * Publishes a candle's words (and, when it was counted, adds it to the
 * count) or refuses them (it is then never counted or shown), for the admin
 * `by`. A helper's refusal sets it aside for the family, who alone can
 * publish it then. Undefined when there is no such candle.
 */
export function setCandleStatus(id: number, status: "APPROVED" | "REJECTED", by: Actor, now = Date.now()): AdminCandle | undefined {
  const helper = by.role === "helper";
  const row = by.commit((tx) => {
    const current = tx.select().from(candles).where(eq(candles.id, id)).get();
    if (!current) return undefined;
    if (current.status === "REJECTED") {
      // Rejecting again changes nothing for a helper (a family's rejection stays the family's); undoing is the family's.
      if (helper && status === "REJECTED") return current;
      if (helper) throw new Refusal(403, "status", ONLY_FAMILY_UNDOES);
    }
    return tx
      .update(candles)
      .set({ status, setAside: status === "REJECTED" && helper, moderatedBy: by.username, moderatedAt: new Date(now) })
      .where(eq(candles.id, id))
      .returning()
      .all()[0];
  });
  return row ? toAdminCandle(row) : undefined;
}

/** Deletes a candle for good, for the family admin `by` (a helper's delete sets it aside); false when there was none. */
export function deleteCandle(id: number, by: Actor): boolean {
  if (by.role === "helper") return setCandleStatus(id, "REJECTED", by) !== undefined;
  return by.commit((tx) => tx.delete(candles).where(eq(candles.id, id)).run().changes > 0);
}

/** Candles helpers set aside, the newest set aside first: the family's Set aside view. */
export function listSetAsideCandles(): AdminCandle[] {
  return db
    .select()
    .from(candles)
    .where(setAsideRows(candles))
    .orderBy(desc(candles.moderatedAt), desc(candles.id))
    .all()
    .map(toAdminCandle);
}

export function countSetAsideCandles(): number {
  return db.select({ n: count() }).from(candles).where(setAsideRows(candles)).get()?.n ?? 0;
}

/** The candle form's schema on the server: its parser and its fields' HTML attributes. */
export const candleForm = serverForm(CandleFormSchema);

/** The most a candle's request body may hold (form or JSON): a name and a line, with room for their encoding. */
export const CANDLE_BODY_BYTES = 8 * 1024;
