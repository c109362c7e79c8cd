import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { intParam, type FieldErrors } from "./http.server";

/**
 * Where a page of a newest-first list ends: the creation time (ms) and id of
 * its last item. The next page holds the items strictly older in
 * (createdAt, id) order, so an item approved meanwhile (always newer) can
 * neither repeat one already shown nor push one past the visitor, and the
 * database seeks straight to it instead of counting past an OFFSET.
 */
export interface PageCursor {
  createdAt: number;
  id: number;
}

/** A page of a newest-first list, and the cursor to continue from (null when the page was not full: nothing more). */
export interface ListPage<T> {
  items: T[];
  next: string | null;
}

/** Opaque to clients, so what it holds can change without breaking their links. */
export function encodeCursor({ createdAt, id }: PageCursor): string {
  return Buffer.from(`${createdAt}.${id}`).toString("base64url");
}

/** The cursor `encodeCursor` wrote, or null for anything else (one spelling per cursor). */
export function decodeCursor(text: string): PageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,48}$/.test(text)) return null;
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(text, "base64url").toString("latin1"));
  if (!match) return null;
  const cursor = { createdAt: Number(match[1]), id: Number(match[2]) };
  if (!Number.isSafeInteger(cursor.createdAt) || !Number.isSafeInteger(cursor.id)) return null;
  return encodeCursor(cursor) === text ? cursor : null;
}

const BAD_CURSOR = 'before must be a cursor this site gave (the "before" of a Link: rel="next" header)';

/** The `before` cursor of a list address: none, a cursor, or the field's error. */
export function cursorParam(url: URL, name = "before"): { value: PageCursor | undefined } | { error: string } {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return { value: undefined };
  const cursor = decodeCursor(raw);
  return cursor ? { value: cursor } : { error: BAD_CURSOR };
}

/**
 * The paging of a JSON list: `limit` (1 to `maxLimit`, the spec's page size
 * when absent) and where to start, either `offset` (the spec's) or `before`
 * (a cursor from the previous page's `Link` header), not both. Each mistake
 * is named by its field, for a 400.
 */
export function listParams(
  url: URL,
  { pageSize, maxLimit }: { pageSize: number; maxLimit: number },
): { limit: number; offset: number; before: PageCursor | undefined } | { errors: FieldErrors } {
  const limit = intParam(url, "limit", { fallback: pageSize, min: 1, max: maxLimit });
  const offset = intParam(url, "offset", { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
  const before = cursorParam(url);
  const errors: FieldErrors = {};
  if ("error" in limit) errors.limit = [limit.error];
  if ("error" in offset) errors.offset = [offset.error];
  if ("error" in before) errors.before = [before.error];
  else if (before.value && url.searchParams.get("offset")) errors.before = ["Give before or offset, not both"];
  if ("error" in limit || "error" in offset || "error" in before || errors.before) return { errors };
  return { limit: limit.value, offset: offset.value, before: before.value };
}

/** Rows strictly newer than the cursor in (createdAt, id) order: the next page of an oldest-first list. */
export function newerThan(createdAt: SQLiteColumn, id: SQLiteColumn, cursor: PageCursor): SQL {
  return sql`(${createdAt}, ${id}) > (${cursor.createdAt}, ${cursor.id})`;
}

/** Rows strictly older than the cursor in (createdAt DESC, id DESC) order: one index range, no OFFSET. */
export function olderThan(
  createdAt: SQLiteColumn,
  id: SQLiteColumn,
  cursor: { createdAt: number | Placeholder; id: number | Placeholder },
): SQL {
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt}, ${cursor.id})`;
}

/**
 * Rows of a newest-first query made into a page: as the spec has it, a full
 * page means there may be more (the Load More button shows when a page
 * returned `limit` items), so it ends with the cursor of its last row.
 */
export function toListPage<Row extends { id: number; createdAt: Date }, T>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => T,
): ListPage<T> {
  const last = rows.at(-1);
  return {
    items: rows.map(toItem),
    next: last && rows.length >= limit ? encodeCursor({ createdAt: last.createdAt.getTime(), id: last.id }) : null,
  };
}

/**
 * `Link: <…>; rel="next"` for a JSON list (the spec's body is a bare array,
 * so the continuation travels in the header, as RFC 8288 and most public
 * APIs have it): the same address and limit, continued from `next`.
 */
export function nextPageLink(url: URL, next: string | null): Record<string, string> {
  if (!next) return {};
  const target = new URLSearchParams(url.searchParams);
  target.delete("offset");
  target.set("before", next);
  return { Link: `<${url.pathname}?${target.toString()}>; rel="next"` };
}
