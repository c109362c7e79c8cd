import { unstable_parseMultipartFormData } from "@remix-run/node";
import { limitMultipartRequest } from "./multipart-limits.server";
import { asRefusal, Refusal } from "./refusal.server";

// The one reader of the site's multipart forms (the share page's plain form,
// the hero photo's and the Karen Mode song's): bounded in every way a form
// can be, with each file streamed to where its model says (a sink), never
// held in memory. The models then get the fields and the files' handles,
// never the request.

/** What one form may hold; past any of it the form is refused (413) before it is read any further. */
export interface MultipartFormLimits {
  /** Bytes in the whole body, as declared and as sent. */
  maxBodyBytes: number;
  /** Parts (fields and files) in the whole form. */
  maxParts: number;
  /** Bytes of one part's header lines. */
  maxHeaderBytes: number;
  /** The text fields kept (the first of each name); any other text part is read and dropped. */
  fields: readonly string[];
  /** Bytes of one kept text field. */
  maxFieldBytes: number;
  /** The file input's name: other file parts, and empty ones (no file chosen), are read and dropped. */
  fileField: string;
  /** Files kept; any more are read, dropped and counted in `filesLeftOut`. */
  maxFiles: number;
  /** Bytes of one file. */
  maxFileBytes: number;
  /**
   * A file past maxFileBytes: `{ refuse: message }` refuses the whole form;
   * "leave out" reads it to its end, discards it and names it in `oversized`,
   * and the rest of the form is read (a visitor's other files still count).
   */
  oversizedFile: { refuse: string } | "leave out";
  /** Sentences for a person, by what was wrong. */
  messages: {
    /** 415: not multipart/form-data. */
    notAForm: string;
    /** 411 when given: the body must declare its length (without it, one that declares none is read within the limits). */
    lengthRequired?: string;
    /** 413: the body declares or turns out to be past maxBodyBytes. */
    tooLarge: string;
    /** 413: a part's header lines past maxHeaderBytes. */
    header: string;
    /** 413: more parts than maxParts. */
    parts: string;
    /** 413: a kept text field past maxFieldBytes. */
    fieldTooLong: string;
    /** 408: an admin's body past its deadline (bodyDeadline in http.server.ts); a general sentence when not given. */
    slow?: string;
  };
}

/**
 * Where a file part's bytes go, chosen by the model (storage through the
 * upload intake, a scratch file): the reader knows no models.
 */
export interface FileSink<Stored> {
  /**
   * Called once the request's headers have passed the limits, before any byte
   * of its body is read, with the most the body can hold (its declared length,
   * else maxBodyBytes): the place to reserve room, or to refuse for want of it.
   */
  open?(bytes: number): Promise<void>;
  /** Streams one file to its place and answers how the model finds it there. A write that fails leaves nothing behind. */
  write(file: { filename: string; contentType: string; data: AsyncIterable<Buffer> }): Promise<Stored>;
  /** Removes what `write` stored: the file was left out, or the form was refused after it. */
  discard(stored: Stored): Promise<void>;
}

interface ReceivedFile<Stored> {
  /** What the sink answered: a storage key, a scratch file. */
  stored: Stored;
  /** The name the browser gave (without its folders): only ever displayed. */
  filename: string;
  /** The type the browser declared; the models tell a file's type from its bytes. */
  contentType: string;
  /** Bytes received. */
  size: number;
}

export interface MultipartForm<Stored> {
  /** The kept text fields that were sent. */
  fields: Record<string, string>;
  /** The files kept, in the order they came; the caller removes them once done (the sink's discard). */
  files: ReceivedFile<Stored>[];
  /** Files past maxFiles, read and dropped. */
  filesLeftOut: number;
  /** Names of the files past maxFileBytes that were left out ("leave out"). */
  oversized: string[];
}

/** A refused form, with the text fields read before the refusal: a refused form gives back what was typed. */
export class FormRefused extends Refusal {
  name = "FormRefused";
  constructor(
    refusal: Refusal,
    readonly fields: Readonly<Record<string, string>>,
  ) {
    super(refusal.status, refusal.field, refusal.message, refusal.retryAfterSeconds);
  }
}

const INTERRUPTED = "The upload was interrupted before it finished. Please try again.";

/** The declared length, when the Content-Length is a whole number. */
function declaredLength(request: Request): number | null {
  const header = request.headers.get("Content-Length");
  const bytes = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : NaN;
  return Number.isSafeInteger(bytes) ? bytes : null;
}

async function drain(data: AsyncIterable<Uint8Array>) {
  for await (const chunk of data) void chunk;
}

async function readText(data: AsyncIterable<Uint8Array>, name: string, limits: MultipartFormLimits) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size > limits.maxFieldBytes) throw new Refusal(413, name, limits.messages.fieldTooLong);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads a multipart form: its fields into memory (each bounded), its files
 * through `sink`, one at a time as they arrive. Checked before any byte of
 * the body is read: the type (415), the declared length (411, 413), then the
 * sink's room (`open`); while it is read: the body's size, its parts and
 * their headers (limitMultipartRequest), each field, each file, and an
 * admin's body deadline (408, bodyDeadline: requireAdmin starts its clock).
 *
 * Throws a FormRefused (the status and sentence a person sees, and the fields
 * read so far), having discarded every file already stored; a body that
 * cannot be read (cut short, malformed) is a 400. A fault of the sink's
 * `open` is thrown as it is.
 */
export async function readMultipartForm<Stored>(
  request: Request,
  limits: MultipartFormLimits,
  sink: FileSink<Stored>,
): Promise<MultipartForm<Stored>> {
  const fields: Record<string, string> = {};
  const refuse = (error: unknown) => {
    const refusal = asRefusal(error);
    return refusal ? new FormRefused(refusal, { ...fields }) : error;
  };

  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data") throw refuse(new Refusal(415, "file", limits.messages.notAForm));
  const declared = declaredLength(request);
  if (declared === null && limits.messages.lengthRequired) throw refuse(new Refusal(411, "file", limits.messages.lengthRequired));
  if (Number(request.headers.get("Content-Length") ?? NaN) > limits.maxBodyBytes)
    throw refuse(new Refusal(413, "file", limits.messages.tooLarge));
  let guarded: Request;
  try {
    await sink.open?.(declared ?? limits.maxBodyBytes);
    guarded = limitMultipartRequest(request, {
      maxHeaderBytes: limits.maxHeaderBytes,
      maxParts: limits.maxParts,
      maxBodyBytes: limits.maxBodyBytes,
      messages: {
        header: limits.messages.header,
        parts: limits.messages.parts,
        body: limits.messages.tooLarge,
        slow: limits.messages.slow,
      },
    });
  } catch (error) {
    throw refuse(error);
  }

  const form: MultipartForm<Stored> = { fields, files: [], filesLeftOut: 0, oversized: [] };
  try {
    await unstable_parseMultipartFormData(guarded, async ({ name, filename, contentType, data }) => {
      if (filename === undefined) {
        if (!limits.fields.includes(name) || Object.hasOwn(fields, name)) return drain(data).then(() => undefined);
        fields[name] = await readText(data, name, limits);
        return undefined;
      }
      // No file chosen comes as an empty part without a name.
      if (name !== limits.fileField || filename === "") return drain(data).then(() => undefined);
      if (form.files.length + form.oversized.length >= limits.maxFiles) {
        form.filesLeftOut += 1;
        return drain(data).then(() => undefined);
      }
      await receiveFile(form, { filename, contentType, data }, limits, sink);
      return undefined;
    });
  } catch (error) {
    await Promise.all(form.files.map((file) => sink.discard(file.stored)));
    const refused = refuse(error);
    if (refused instanceof FormRefused) throw refused;
    console.error(JSON.stringify({ level: "warn", msg: "a multipart form could not be read", error: String(error) }));
    throw refuse(new Refusal(400, limits.fileField, INTERRUPTED));
  }
  return form;
}

/** One file through the sink, counted and bounded on its way. */
async function receiveFile<Stored>(
  form: MultipartForm<Stored>,
  part: { filename: string; contentType: string; data: AsyncIterable<Uint8Array> },
  limits: MultipartFormLimits,
  sink: FileSink<Stored>,
) {
  const { oversizedFile } = limits;
  const seen = { size: 0, refusal: null as Refusal | null };
  async function* counted() {
    for await (const chunk of part.data) {
      seen.size += chunk.byteLength;
      if (seen.size > limits.maxFileBytes) {
        // Read on without storing, so the browser gets our answer instead of a reset connection.
        if (oversizedFile === "leave out") continue;
        seen.refusal = new Refusal(413, limits.fileField, oversizedFile.refuse);
        throw seen.refusal;
      }
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
  let stored: Stored;
  try {
    stored = await sink.write({ filename: part.filename, contentType: part.contentType, data: counted() });
  } catch (error) {
    // The sink may have put our refusal in words of its own.
    throw seen.refusal ?? error;
  }
  if (seen.size > limits.maxFileBytes) {
    await sink.discard(stored);
    form.oversized.push(part.filename);
    return;
  }
  form.files.push({ stored, filename: part.filename, contentType: part.contentType, size: seen.size });
}
