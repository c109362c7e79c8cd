import { bodyDeadline, readBefore } from "./http.server";
import { Refusal } from "./refusal.server";

/**
 * Limits on a multipart/form-data body that a parser does not keep by itself.
 * Remix's parser collects a part's header lines until the blank line that
 * ends them, however long that takes: a sender whose part header never ends
 * would fill the server's memory. This guard reads the body on its way to the
 * parser, follows the same boundaries, and stops the body at the first part
 * header, part count or total size past its limits.
 */
export interface MultipartLimits {
  /** Bytes of one part's header lines (its name, file name and type take well under 1 KB). */
  maxHeaderBytes: number;
  /** Parts (fields and files) in the whole form. */
  maxParts: number;
  /** Bytes in the whole body. */
  maxBodyBytes: number;
  /** Messages for a person, by what went over (`slow`: an admin's body past its deadline, see bodyDeadline). */
  messages: { header: string; parts: string; body: string; slow?: string };
}

const TOO_SLOW = "The upload took too long to arrive, so nothing was changed. Please try again, on a faster connection if you can.";

const CRLF2 = Buffer.from("\r\n\r\n");
const DASH2 = Buffer.from("--");

type State = "preamble" | "delimiter" | "header" | "body" | "epilogue";

/** Follows the structure of a multipart body chunk by chunk; holds at most a boundary's length of it. */
export class MultipartScanner {
  private readonly delimiter: Buffer;
  private state: State = "preamble";
  private carry = Buffer.alloc(0);
  /** Stream offset of carry[0]. */
  private offset = 0;
  private headerStart = 0;
  parts = 0;

  constructor(
    boundary: string,
    private readonly limits: MultipartLimits,
  ) {
    // The parser looks for "--boundary" (without the CRLF before it), so this does too.
    this.delimiter = Buffer.from(`--${boundary}`);
  }

  /** Takes the next chunk; answers the refusal for what it breaks, or null. */
  feed(chunk: Uint8Array): Refusal | null {
    const buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.offset + buf.length > this.limits.maxBodyBytes) return new Refusal(413, "file", this.limits.messages.body);
    let pos = 0;
    let keep = 0;
    for (;;) {
      if (this.state === "epilogue") break;
      if (this.state === "preamble" || this.state === "body") {
        const at = buf.indexOf(this.delimiter, pos);
        if (at === -1) {
          keep = Math.min(this.delimiter.length - 1, buf.length - pos);
          break;
        }
        pos = at + this.delimiter.length;
        this.state = "delimiter";
      }
      if (this.state === "delimiter") {
        if (buf.length - pos < 2) {
          keep = buf.length - pos;
          break;
        }
        if (buf.subarray(pos, pos + 2).equals(DASH2)) {
          this.state = "epilogue";
          break;
        }
        this.parts += 1;
        if (this.parts > this.limits.maxParts) return new Refusal(413, "file", this.limits.messages.parts);
        this.headerStart = this.offset + pos;
        this.state = "header";
      }
      if (this.state === "header") {
        const at = buf.indexOf(CRLF2, pos);
        const end = at === -1 ? buf.length : at;
        if (this.offset + end - this.headerStart > this.limits.maxHeaderBytes) return new Refusal(413, "file", this.limits.messages.header);
        if (at === -1) {
          keep = Math.min(CRLF2.length - 1, buf.length - pos);
          break;
        }
        pos = at + CRLF2.length;
        this.state = "body";
      }
    }
    this.carry = Buffer.from(buf.subarray(buf.length - keep));
    this.offset += buf.length - keep;
    return null;
  }
}

/** The boundary a multipart/form-data Content-Type names, read as Remix's parser reads it. */
function multipartBoundary(contentType: string | null): string | null {
  const [type, boundary] = (contentType ?? "").split(/\s*;\s*boundary=/);
  return type?.trim().toLowerCase() === "multipart/form-data" && boundary ? boundary : null;
}

/**
 * The request with its body passed through a MultipartScanner. The body
 * errors with the scanner's Refusal, or a 408 one when an admin's body has
 * not arrived by its deadline (bodyDeadline, for `maxBodyBytes`); the rest of
 * what the sender sends is left to the server to discard (the source is
 * released, never cancelled, so the answer still reaches the browser).
 */
export function limitMultipartRequest(request: Request, limits: MultipartLimits): Request {
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (!boundary || !request.body)
    throw new Refusal(400, "file", "The form could not be read. Please go back, reload the page and try again.");
  const scanner = new MultipartScanner(boundary, limits);
  const deadline = bodyDeadline(request, limits.maxBodyBytes);
  const tooSlow = () => new Refusal(408, "file", limits.messages.slow ?? TOO_SLOW);
  const reader = request.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await readBefore(reader, deadline, tooSlow);
        } catch (error) {
          controller.error(error);
          return;
        }
        if (next.done) return controller.close();
        const refusal = scanner.feed(next.value);
        if (refusal) {
          reader.releaseLock();
          controller.error(refusal);
          return;
        }
        controller.enqueue(next.value);
      },
      cancel() {
        reader.releaseLock();
      },
    },
    { highWaterMark: 0 },
  );
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}
