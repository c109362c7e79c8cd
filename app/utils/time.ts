import { formatDistance } from "date-fns";

/**
 * "about 2 hours ago", measured against a `now` that the loader chooses, so
 * the server and the browser render the same words (no hydration mismatch).
 */
export function relativeTime(createdAt: string | number | Date | null | undefined, now: number): string {
  if (createdAt === null || createdAt === undefined || createdAt === "") return "Recently";
  const when = new Date(createdAt);
  if (Number.isNaN(when.getTime())) return "Recently";
  // A clock a little ahead of ours must not read "in 2 minutes".
  const clamped = Math.min(when.getTime(), now);
  return formatDistance(clamped, now, { addSuffix: true });
}

/** Minutes and zero-padded seconds: 75 → "1:15". */
export function formatDuration(totalSeconds: number | null | undefined): string {
  const seconds = Math.max(0, Math.round(totalSeconds ?? 0));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}
