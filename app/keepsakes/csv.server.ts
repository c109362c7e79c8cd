import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { stringify } from "csv-stringify";
import { and, asc, gt, isNotNull, ne, sql } from "drizzle-orm";
import { memories, rsvps, uploads } from "../../db/schema";
import { db } from "~/platform/db.server";
import { getSiteSettings } from "~/site/settings.server";
import { parseSubmittedBy } from "~/utils/submitted-by";

/** Rows are read in batches with no cursor left open, so the database stays free for visitors. */
const BATCH = 1000;
/** csv-stringify writes one small chunk per row; sending ~64 KiB at a time is ~30× faster. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A cell a spreadsheet would take for a formula (=, +, -, @, tab, carriage
 * return at the start) gets a leading apostrophe, so it is shown, never run.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const csvDateFormats = new Map<string, Intl.DateTimeFormat>();
function csvDateFormat(timeZone: string) {
  let format = csvDateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    csvDateFormats.set(timeZone, format);
  }
  return format;
}

/** "2025-08-31 16:05 PDT": sortable, in the family's time zone like the admin panel, with the zone named. */
export function csvDate(date: Date, timeZone: string): string {
  const part = Object.fromEntries(
    csvDateFormat(timeZone)
      .formatToParts(date)
      .map(({ type, value }) => [type, value]),
  );
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute} ${part.timeZoneName}`;
}

async function* coalesce(source: AsyncIterable<Buffer | string>) {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    pending.push(buffer);
    size += buffer.length;
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(pending, size);
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(pending, size);
}

/** CSV bytes (UTF-8 with a BOM, so spreadsheets show accents) of the rows, as a Node stream. */
export function csvReadable(columns: string[], rows: AsyncIterable<string[]> | Iterable<string[]>): Readable {
  const csv = stringify({ bom: true, header: true, columns, cast: { string: neutraliseCell } });
  Readable.from(rows)
    .on("error", (error) => csv.destroy(error))
    .pipe(csv);
  return Readable.from(coalesce(csv));
}

/** CSV bytes of the rows, streamed as a response body. */
export function csvStream(columns: string[], rows: AsyncIterable<string[]> | Iterable<string[]>): ReadableStream<Uint8Array> {
  return createReadableStreamFromReadable(csvReadable(columns, rows));
}

export const MEMORY_COLUMNS = ["Name", "Email", "Phone", "Message", "Submitted"];

/** Approved memories, oldest first, as CSV rows. */
export function* approvedMemoryRows(): Generator<string[]> {
  const { timeZone } = getSiteSettings();
  let lastId = 0;
  for (;;) {
    const batch = db
      .select({
        id: memories.id,
        name: memories.name,
        email: memories.email,
        phone: memories.phone,
        message: memories.message,
        createdAt: memories.createdAt,
      })
      .from(memories)
      // The unary + keeps SQLite walking the primary key in order: with the
      // status index it would sort every remaining approved row for each batch.
      .where(and(sql`+${memories.status} = 'APPROVED'`, gt(memories.id, lastId)))
      .orderBy(asc(memories.id))
      .limit(BATCH)
      .all();
    for (const memory of batch) {
      yield [memory.name, memory.email, memory.phone ?? "", memory.message, csvDate(memory.createdAt, timeZone)];
    }
    if (batch.length < BATCH) return;
    lastId = batch[batch.length - 1]!.id;
  }
}

export const RSVP_COLUMNS = ["Name", "Email", "Guests", "Notes", "Submitted"];

/** Everyone who said they attended, oldest first, as CSV rows. */
export function* rsvpRows(): Generator<string[]> {
  const { timeZone } = getSiteSettings();
  for (const rsvp of batches((after) => db.select().from(rsvps).where(gt(rsvps.id, after)).orderBy(asc(rsvps.id)).limit(BATCH).all())) {
    yield [rsvp.name, rsvp.email, String(rsvp.guestCount), rsvp.notes ?? "", csvDate(rsvp.createdAt, timeZone)];
  }
}

export const CONTACT_COLUMNS = ["Name", "Email", "Phone", "Came from"];

interface Contact {
  name: string;
  email: string;
  phone: string;
  sources: Set<string>;
}

function* batches<T extends { id: number }>(read: (afterId: number) => T[]): Generator<T> {
  let lastId = 0;
  for (;;) {
    const batch = read(lastId);
    yield* batch;
    if (batch.length < BATCH) return;
    lastId = batch[batch.length - 1]!.id;
  }
}

/**
 * Everyone who left contact details, once per email address (the latest name
 * and phone win), with where they came from: for the thank-you notes. What
 * the family rejected (spam, mostly) is left out, and with it whoever sent
 * only that. The list is gathered before it is written, one entry per person.
 * Followers are not contacts: the keepsake ZIP holds this list, and their
 * addresses are never in it.
 */
export function contactRows(): string[][] {
  const contacts = new Map<string, Contact>();
  const add = (name: string, email: string, phone: string | null, source: string) => {
    const key = email.trim().toLowerCase();
    if (!key) return;
    const contact = contacts.get(key) ?? { name, email: email.trim(), phone: "", sources: new Set<string>() };
    contact.name = name || contact.name;
    contact.phone = phone || contact.phone;
    contact.sources.add(source);
    contacts.set(key, contact);
  };
  for (const memory of batches((after) =>
    db
      .select()
      .from(memories)
      .where(and(gt(memories.id, after), ne(memories.status, "REJECTED")))
      .orderBy(asc(memories.id))
      .limit(BATCH)
      .all(),
  )) {
    add(memory.name, memory.email, memory.phone, "Guest book");
  }
  for (const upload of batches((after) =>
    db
      .select({ id: uploads.id, submittedBy: uploads.submittedBy, type: uploads.type })
      .from(uploads)
      .where(and(gt(uploads.id, after), isNotNull(uploads.submittedBy), ne(uploads.status, "REJECTED")))
      .orderBy(asc(uploads.id))
      .limit(BATCH)
      .all(),
  )) {
    const who = parseSubmittedBy(upload.submittedBy ?? "");
    if (who) add(who.name, who.email, null, upload.type === "AUDIO" ? "Voice memories" : "Photos and videos");
  }
  for (const rsvp of batches((after) => db.select().from(rsvps).where(gt(rsvps.id, after)).orderBy(asc(rsvps.id)).limit(BATCH).all())) {
    add(rsvp.name, rsvp.email, null, "Attendance");
  }
  return [...contacts.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((contact) => [contact.name, contact.email, contact.phone, [...contact.sources].join(", ")]);
}
