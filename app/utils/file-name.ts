// File names made from what visitors typed (their name, their file's name),
// safe to unzip on Windows, macOS and Linux, and never the same twice in
// one folder.

/** Characters Windows refuses in a name (and `/`, which every system does), control characters, and text-direction overrides. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Names Windows keeps for devices, whatever their extension ("CON.txt" is the console too). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/** Cuts `text` to at most `maxBytes` of UTF-8, never inside a character. */
function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * One part of a file name: what a person typed, with what a file system
 * refuses or hides replaced, at most `maxBytes` of UTF-8 (names are at most
 * 255 bytes on most disks, and Windows paths 260 characters), or `fallback`
 * when nothing is left.
 */
export function safeNamePart(text: string, maxBytes: number, fallback: string): string {
  const cleaned = text.normalize("NFC").replace(FORBIDDEN, "_").replace(/\s+/g, " ").trim();
  // Windows drops trailing dots and spaces; a leading dot hides the file on macOS and Linux.
  const trimmed = cutToBytes(cleaned, maxBytes)
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");
  return trimmed || fallback;
}

/** `name` split into its stem and its extension (with the dot, as written; empty when there is none). */
export function splitExtension(name: string): { stem: string; ext: string } {
  const match = /^(.+?)(\.[A-Za-z0-9]{1,8})$/.exec(name);
  return match ? { stem: match[1]!, ext: match[2]! } : { stem: name, ext: "" };
}

/**
 * A file name for one folder, safe on every system: forbidden characters
 * replaced, at most `maxBytes`, the extension kept, a device name of
 * Windows made harmless.
 */
export function safeFileName(name: string, { maxBytes = 150, fallback = "file" }: { maxBytes?: number; fallback?: string } = {}): string {
  const { stem, ext } = splitExtension(safeNamePart(name, Number.POSITIVE_INFINITY, fallback));
  const safeStem = safeNamePart(stem, maxBytes - ext.length, fallback);
  const joined = `${safeStem}${ext}`;
  return WINDOWS_DEVICE.test(joined) ? `_${joined}` : joined;
}

/**
 * Hands out names within one folder: a name already given (in any case, as
 * Windows and macOS compare them) comes back as "name (2).ext", "name (3).ext"…
 */
export function uniqueNames() {
  const taken = new Set<string>();
  return (name: string): string => {
    const { stem, ext } = splitExtension(name);
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}
