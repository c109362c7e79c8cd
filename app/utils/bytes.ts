const UNITS = ["KB", "MB", "GB", "TB"] as const;

/**
 * A size as a person reads it: "780 MB", "1.2 GB". Counted in 1024s, as the
 * spec's "1 GB per file" (1073741824 bytes) is.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.round(bytes))} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value < 10 && unit >= 1 ? value.toFixed(1).replace(/\.0$/, "") : String(Math.round(value));
  return `${shown} ${UNITS[unit]}`;
}
