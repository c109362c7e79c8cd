import { json } from "@remix-run/node";
import { errorResponse } from "./http.server";

/**
 * A request the site's rules refuse, with the field it concerns and a message
 * a person understands. Models throw it; routes answer it once, as the API's
 * `{"errors": {field: [message]}}` or as a form error beside the form.
 */
export class Refusal extends Error {
  name = "Refusal";
  constructor(
    readonly status: number,
    readonly field: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get headers(): Record<string, string> | undefined {
    return this.retryAfterSeconds ? { "Retry-After": String(this.retryAfterSeconds) } : undefined;
  }
}

export const STORAGE_FULL =
  "The website's storage is full, so this could not be saved. Nothing was kept. Please try again later; the family has been told.";

/**
 * SQLite's answers when a write could not be made durable: the disk (or the
 * database's size limit) is full, the disk failed, or the file became
 * read-only. None of these is the visitor's fault and none left a change.
 */
const STORAGE_FAILURES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)/;
const DISK_FAILURES = new Set(["ENOSPC", "EDQUOT", "EIO", "EROFS"]);

function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (STORAGE_FAILURES.test(code) || DISK_FAILURES.has(code));
}

/** The refusal an error stands for, or null when it is a fault of ours to log. */
export function asRefusal(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  if (isStorageFailure(error)) {
    console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", msg: "storage full or failing", error: String(error) }));
    return new Refusal(507, "body", STORAGE_FULL);
  }
  return null;
}

/**
 * A failure toast for a refused change, with the refusal's reason after the
 * spec's words (e.g. "Failed to update memory status. The website's storage
 * is full…"). Anything that is not a refusal is a fault and is thrown.
 */
export function failureToast<T extends { description: string }>(toast: T, error: unknown): T {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  return { ...toast, description: `${toast.description} ${refusal.message}` };
}

/** A refusal in the API's error shape. */
function refusalResponse(refusal: Refusal) {
  return errorResponse(refusal.status, { [refusal.field]: [refusal.message] }, { headers: refusal.headers });
}

/** Runs an API handler, answering refusals (storage failures included) in the API's error shape. */
export async function answerRefusals(handler: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    const refusal = asRefusal(error);
    if (refusal) return refusalResponse(refusal);
    throw error;
  }
}

/**
 * A refusal as a form's answer: the form comes back with everything typed
 * kept and the message above it (conform's `reply`), with the refusal's
 * status and Retry-After.
 */
function refusalFormReply<R>(submission: { reply(options: { formErrors: string[] }): R }, refusal: Refusal) {
  return json(
    { result: submission.reply({ formErrors: [refusal.message] }), failed: true as const },
    { status: refusal.status, headers: refusal.headers },
  );
}

/**
 * Runs a form's write. A refusal (too many, storage full) comes back as the
 * form's answer with what was typed; anything else is a fault and is thrown.
 * Null when the write went through.
 */
export function replyIfRefused<R>(submission: { reply(options: { formErrors: string[] }): R }, write: () => unknown) {
  try {
    write();
    return null;
  } catch (error) {
    const refusal = asRefusal(error);
    if (refusal) return refusalFormReply(submission, refusal);
    throw error;
  }
}
