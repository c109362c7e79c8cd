// @ts-check
// Where the render cache keeps its copies: least recently used first out,
// by count and by bytes (docs/decisions/015-render-cache.md).

export const RENDER_CACHE_LIMITS = Object.freeze({
  /** Copies kept at once. */
  maxEntries: 1000,
  /**
   * Bytes all copies may take together, every encoding counted: a sixteenth
   * of the 512 MB box, which also holds the server (about 110 MB) and an
   * encode (ffmpeg up to 300 MB resident for 4K HEVC) at once (docs/decisions/029-fly-box.md).
   */
  maxBytes: 32 * 1024 * 1024,
  /** A bigger answer is sent but not kept. */
  maxEntryBytes: 1024 * 1024,
  /** The oldest a copy may be: the clock moves what pages say ("about 2 hours ago", the service being over). */
  ttlMs: 60_000,
});

/**
 * One kept answer.
 * @typedef {object} Entry
 * @property {string} version the content version it was rendered under
 * @property {number} renderedAt
 * @property {[string, string][]} headers the answer's own headers and the cache's
 * @property {string} etag
 * @property {Buffer} identity
 * @property {Buffer | undefined} gzip
 * @property {Buffer | undefined} br
 * @property {number} bytes
 * @property {{ identity: string[]; gzip?: string[]; br?: string[]; notModified: string[] }} raw
 *   every header of an answer from the fast path, security headers included, as writeHead takes them
 */

export class EntryStore {
  /** @param {{ maxEntries: number; maxBytes: number }} limits */
  constructor(limits) {
    this.limits = limits;
    /** @type {Map<string, Entry>} */
    this.entries = new Map();
    this.bytes = 0;
  }

  /** @param {string} key */
  get(key) {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** @param {string} key @param {Entry} entry */
  set(key, entry) {
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** @param {string} key */
  delete(key) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
