import type { Readable } from "node:stream";
import { json, type AppLoadContext, type HeadersFunction } from "@remix-run/node";
import type { z } from "zod";
import { config } from "~/platform/config.server";

export type FieldErrors = Record<string, string[]>;

/** The API's error shape: `{"errors": {"<field>": ["<message>"]}}`. */
export function errorResponse(status: number, errors: FieldErrors, init?: ResponseInit) {
  return json({ errors }, { ...init, status });
}

/** A method this address does not answer: 405 with the ones it does in `Allow`. */
export function methodNotAllowed(allow: string) {
  return errorResponse(405, { method: [`Use ${allow} here`] }, { headers: { Allow: allow } });
}

/**
 * The action of an address that only answers GET (and HEAD): any other method
 * is a 405 in the API's shape, where Remix alone would answer a bare
 * "Unexpected Server Error".
 */
export const readOnlyAction = () => methodNotAllowed("GET");

/** The site's own origin as the browser sees it (https behind Fly's proxy). */
export function siteOrigin(request: Request) {
  return new URL(request.url).origin;
}

/**
 * The origin to print and hand out (QR codes, the calendar file):
 * `PUBLIC_URL` when the family set it, else the request's own origin.
 */
export function publicOrigin(request: Request) {
  return config.PUBLIC_URL ?? siteOrigin(request);
}

/**
 * Caching for an answer that names `publicOrigin`: shared caches may keep it
 * only when that origin is configured; one taken from the request (its Host,
 * or a proxy's forwarded host) is kept by this browser alone.
 */
export function publicOriginCacheControl(maxAgeSeconds: number) {
  return `${config.PUBLIC_URL ? "public" : "private"}, max-age=${maxAgeSeconds}`;
}

/**
 * Throws a 4xx answer unless `condition` holds. With `field`, the answer is
 * the API's error shape; without, the plain sentence a page's error boundary
 * shows.
 */
export function invariantResponse(
  condition: unknown,
  message: string,
  { status, field }: { status: number; field?: string },
): asserts condition {
  if (condition) return;
  throw field ? errorResponse(status, { [field]: [message] }) : new Response(message, { status });
}

/** Field messages of a failed zod parse, keyed by the top-level field name. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : "body";
    const messages = (errors[field] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return errors;
}

const MAX_JSON_BYTES = 64 * 1024;

// An admin's request body must arrive in time: a body held open for
// minutes, a byte now and then, kept a request waiting to act long after its
// admin was let in. The clock starts when requireAdmin lets the request in;
// past the deadline, reading the body fails with a 408 and nothing changes.
// Visitors' bodies have no deadline (a relative's video may take twenty
// minutes: server/timeouts.mjs).

/** Every admin body has this long, whatever its size: most of a small form's time. */
export const ADMIN_BODY_GRACE_MS = 30_000;
/** Then its size limit at 256 kbit/s, a weak mobile upload: 2 s more for a 64 KB form, about 14 minutes for the 25 MB hero photo. */
export const SLOW_UPLOAD_BYTES_PER_SECOND = 32 * 1024;

const bodyClocks = new WeakMap<Request, number>();

/** Puts the request's body on the admin's clock from `now` (requireAdmin does, once it has let the request in). */
export function startBodyClock(request: Request, now = Date.now()) {
  if (!bodyClocks.has(request)) bodyClocks.set(request, now);
}

/** When a body of at most `maxBytes` must have arrived (ms since the epoch), or null for a request with no deadline. */
export function bodyDeadline(request: Request, maxBytes: number): number | null {
  const start = bodyClocks.get(request);
  return start === undefined ? null : start + ADMIN_BODY_GRACE_MS + Math.ceil((maxBytes / SLOW_UPLOAD_BYTES_PER_SECOND) * 1000);
}

/**
 * The next chunk of a body, or, once `deadline` has passed without one, the
 * error `late()` makes (thrown). The reader is then released, not cancelled:
 * cancelling would destroy the connection before the answer is sent, and the
 * server discards the rest of the body (server/index.mjs).
 */
export async function readBefore<T>(
  reader: ReadableStreamDefaultReader<T>,
  deadline: number | null,
  late: () => unknown,
): Promise<ReadableStreamReadResult<T>> {
  if (deadline === null) return reader.read();
  const left = deadline - Date.now();
  if (left > 0) {
    const next = reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left)));
    try {
      const first = await Promise.race([next, expired]);
      if (first) return first;
    } finally {
      clearTimeout(timer);
    }
    // Releasing the reader fails the read still waiting; nobody needs its answer.
    next.catch(() => {});
  }
  reader.releaseLock();
  throw late();
}

/**
 * Reads the whole body, refusing (with the Response `tooLarge` makes) one
 * that declares or turns out to be larger than `maxBytes`, without ever
 * holding more than that in memory, and (with the one `tooSlow` makes) an
 * admin's body that has not arrived by its deadline.
 */
async function readBodyLimited(request: Request, maxBytes: number, tooLarge: () => Response, tooSlow: () => Response): Promise<Buffer> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  const deadline = bodyDeadline(request, maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await readBefore(reader, deadline, tooSlow);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Not cancel(): that would destroy the connection before the answer is
        // sent. The server discards the rest of the body (server/index.mjs).
        reader.releaseLock();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** The request's media type without parameters: "multipart/form-data; boundary=x" → "multipart/form-data". */
function mediaType(request: Request): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Reads a JSON object body. Anything a client could get wrong is answered
 * with a 4xx Response (thrown), never a 500.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_JSON_BYTES): Promise<Record<string, unknown>> {
  if (mediaType(request) !== "application/json") {
    throw errorResponse(415, { body: ["Send the data as JSON with Content-Type: application/json"] });
  }
  const tooLarge = () => errorResponse(413, { body: [`The request body must be at most ${maxBytes / 1024} KB`] });
  const tooSlow = () =>
    errorResponse(408, { body: ["The request body took too long to arrive, so nothing was changed. Please send it again."] });
  const bytes = await readBodyLimited(request, maxBytes, tooLarge, tooSlow);
  const text = bytes.toString("utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw errorResponse(400, { body: ["The request body is not valid JSON"] });
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw errorResponse(400, { body: ["The request body must be a JSON object"] });
  }
  return data as Record<string, unknown>;
}

/** Parses a non-negative whole number from a query parameter, or reports the field. */
export function intParam(
  url: URL,
  name: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
): { value: number } | { error: string } {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return { value: fallback };
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return { error: `${name} must be a whole number from ${min} to ${max}` };
  }
  return { value };
}

const MAX_FORM_BYTES = 64 * 1024;

function plainText(status: number, message: string) {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * Reads a small HTML form post (url-encoded or multipart) with a size cap.
 * A body that is too large, of another type or unreadable is answered with a
 * 4xx plain sentence (thrown), never a 500.
 */
export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const type = mediaType(request);
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") {
    throw plainText(415, "This address only accepts a form sent from this website's pages.");
  }
  const bytes = await readBodyLimited(
    request,
    maxBytes,
    () => plainText(413, `That is more text than this form accepts (at most ${maxBytes / 1024} KB). Please shorten it and try again.`),
    () => plainText(408, "This form took too long to arrive, so nothing was changed. Please check your connection and send it again."),
  );
  if (type === "application/x-www-form-urlencoded") {
    const form = new FormData();
    for (const [key, value] of new URLSearchParams(bytes.toString("utf8"))) form.append(key, value);
    return form;
  }
  try {
    return await new Response(new Uint8Array(bytes), {
      headers: { "Content-Type": request.headers.get("Content-Type")! },
    }).formData();
  } catch {
    throw plainText(400, "The form could not be read. Please go back, reload the page and try again.");
  }
}

/** Pages with a form: never kept by a browser or a cache, so Back fetches them afresh instead of showing a sent form refilled. */
export const NO_STORE = "no-store";
/** What only this visitor (an administrator) may see. */
export const PRIVATE_NO_STORE = "private, no-store";
/** Kept by this browser alone, and asked for again each time (an unchanged answer is a 304 for its ETag). */
export const PRIVATE_NO_CACHE = "private, no-cache";

/** A CSV file to download, named with the day it was made, kept by no cache. */
export function csvResponse(name: string, body: ReadableStream<Uint8Array>, today = new Date()) {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${today.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": PRIVATE_NO_STORE,
    },
  });
}

/**
 * Aborts when the client has gone: the server's signal (`clientGone` in
 * app/load-context.d.ts, which a garbage collection cannot disconnect), or
 * the request's where there is no server (a loader called by a test).
 */
export function clientGone(request: Request, context: AppLoadContext): AbortSignal {
  return context.clientGone ?? request.signal;
}

/**
 * A response body read from a Node stream only as fast as the client takes
 * it. Remix's Node adapter writes each chunk to the socket without waiting
 * for it to drain, so a long download to a slow client would otherwise
 * pile up in the server's memory: `drained` (the load context's
 * `responseDrained`, from server/index.mjs) is awaited before each chunk.
 * The stream is opened at the first read, so a HEAD request opens nothing;
 * once `signal` has aborted (the client left), the body just ends.
 */
export function streamedBody(
  open: () => Readable,
  { drained, signal }: { drained?: () => Promise<void>; signal?: AbortSignal },
): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  const stop = async () => {
    await chunks?.return?.();
    return { done: true as const, value: undefined };
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await drained?.();
        try {
          chunks ??= open()[Symbol.asyncIterator]();
          // A download given up on closes its file now, not whenever the collector comes by.
          const next = signal?.aborted ? await stop() : await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        } catch (error) {
          if (!signal?.aborted) throw error;
          await stop();
          controller.close();
        }
      },
      async cancel() {
        await stop();
      },
    },
    // Nothing read ahead: one chunk is asked for when the last one has gone out.
    { highWaterMark: 0 },
  );
}

/** An attachment to download, kept by no cache and never re-encoded on the way (a ZIP is compressed already). */
export function downloadHeaders(fileName: string, contentType: string) {
  return {
    "Content-Type": contentType,
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "Cache-Control": `${PRIVATE_NO_STORE}, no-transform`,
  };
}

/** A route's document gets the Cache-Control its loader chose (Remix sends loader headers only with data requests). */
export const loaderCacheControl: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const value = loaderHeaders.get("Cache-Control");
  if (value) headers.set("Cache-Control", value);
  return headers;
};

/** For form pages: the document is never stored. */
export const noStoreHeaders: HeadersFunction = () => ({ "Cache-Control": NO_STORE });
