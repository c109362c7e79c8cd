// Durations and dates in the family's time zone. "about 2 hours ago" is in
// relative-time.ts, so a page that shows one loads only what it uses
// (docs/decisions/017).
/** Minutes and zero-padded seconds: 75 → "1:15". */
export function formatDuration(totalSeconds: number | null | undefined): string {
  const seconds = Math.max(0, Math.round(totalSeconds ?? 0));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
    dateFormats.set(key, format);
  }
  return format;
}

/** "Aug 31, 2025, 4:05 PM" in the family's time zone (the same on the server and in the browser). */
export function formatDateTime(date: string | Date, timeZone: string): string {
  return formatter(timeZone, { dateStyle: "medium", timeStyle: "short" }).format(new Date(date));
}

/** "Aug 31, 4:05 PM": short month, day, hour and minute. */
export function formatShortDateTime(date: string | Date, timeZone: string): string {
  return formatter(timeZone, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }).format(new Date(date));
}

/** "2025-08-31": the day in the family's time zone, for file names. */
export function formatIsoDate(date: string | number | Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone, { year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(date))
      .map(({ type, value }) => [type, value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** "August 31, 2025" in the family's time zone. */
export function formatLongDate(date: string | number | Date, timeZone: string): string {
  return formatter(timeZone, { dateStyle: "long" }).format(new Date(date));
}
