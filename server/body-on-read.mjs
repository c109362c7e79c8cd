// @ts-check
// A response whose body is written only when something reads it
// (docs/decisions/018-remembered-route-matching.md). A page's HTML and a
// loader's plain JSON are most often never read as a body at all: the
// server sends the page's string as it is, and a document takes loader data
// straight from the response. Creating the body up front (a web stream per
// response) would be work thrown away.

/** The body-reading methods a response has on this Node (`bytes` is newer than Node 20). */
const BODY_READERS = ["arrayBuffer", "blob", "bytes", "formData", "json", "text"].filter(
  (name) => typeof (/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (Response.prototype))[name]) === "function",
);

/** Statuses whose responses may not have a body: given one, the Response constructor refuses it at once. */
export const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Reads as any other response (`body`, `bodyUsed`, `text()`, `json()`,
 * `arrayBuffer()`, `clone()`…), with the body `write()` gives, written on
 * the first read.
 */
export class BodyOnReadResponse extends Response {
  /** @type {() => string} */
  #write;
  /** @type {Response | null} */
  #written = null;

  /** @param {() => string} write the body, called at most once @param {ResponseInit} init */
  constructor(write, init) {
    super(null, init);
    this.#write = write;
  }

  /** The same response with its body written. */
  written() {
    this.#written ??= new Response(this.#write(), { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#written;
  }

  get body() {
    return this.written().body;
  }

  get bodyUsed() {
    return this.#written?.bodyUsed ?? false;
  }

  clone() {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new BodyOnReadResponse(this.#write, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  static {
    // Each reads the written body: text(), json(), arrayBuffer() and the rest.
    for (const name of BODY_READERS) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        writable: true,
        /** @this {BodyOnReadResponse} @param {unknown[]} args */
        value(...args) {
          const written = /** @type {Record<string, (...args: unknown[]) => unknown>} */ (/** @type {unknown} */ (this.written()));
          return /** @type {(...args: unknown[]) => unknown} */ (written[name]).apply(written, args);
        },
      });
    }
  }
}
