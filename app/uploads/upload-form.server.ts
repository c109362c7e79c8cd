// The share page's plain form (without JavaScript, and on browsers too old
// for the upload dialog): one multipart request with the name, the e-mail and
// up to ten files, read by the route (readMultipartForm) within SHARE_FORM's
// limits. The bytes it declares are reserved against the storage budget
// before it is read (shareFormSink); each file is streamed to storage as it
// arrives and then goes through the same checks as a direct upload; the name
// and e-mail through the same schema as the JSON API's submittedBy.
import { MAX_FILES_PER_VISIT, MAX_UPLOAD_BYTES } from "~/media/limits";
import { tooLongIn } from "~/media/voice-length";
import type { FileSink, MultipartForm, MultipartFormLimits } from "~/platform/multipart.server";
import { asRefusal, Refusal } from "~/platform/refusal.server";
import { eq } from "drizzle-orm";
import type { Readable } from "node:stream";
import { signedUploads } from "../../db/schema";
import { networkKey } from "~/platform/rate-limit.server";
import { db } from "~/platform/db.server";
import { getMediaStorage } from "~/media/media-storage.server";
import { UploadTooLargeError } from "~/media/storage.server";
import { reserveUploadBytes, STORAGE_FULL_FOR_FORM, TOO_LARGE, type UploadIntake } from "./upload-budget.server";
import {
  countUpload,
  findSignedUpload,
  forgetObject,
  LENGTH_REQUIRED,
  newOriginalKey,
  registerStoredObject,
  type UploadDetails,
} from "./upload-intake.server";
import { SubmitterSchema } from "./complete-upload.schema";
import { UploadRefused } from "./upload-refusal.server";
import { submitterLabel } from "~/utils/submitted-by";
import { translate, translateError } from "~/i18n/i18n.server";
import { DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";

/** The most the share form's body may hold: ten files of 1 GB and the rest of the form. */
const MAX_FORM_BODY_BYTES = MAX_FILES_PER_VISIT * MAX_UPLOAD_BYTES + 1024 * 1024;
const FORM_TOO_LARGE = `The files are larger than the form can take at once (${MAX_FILES_PER_VISIT} files of at most 1 GB each). Please choose fewer or smaller files.`;

/**
 * The share form without JavaScript, before its body is read: the `bytes` it
 * says it carries are reserved against every budget. Release the intake when
 * the form has been answered.
 */
async function beginFormUpload(bytes: number, clientIp?: string): Promise<UploadIntake> {
  try {
    return await reserveUploadBytes({ kind: "form", bytes, clientIp });
  } catch (error) {
    if (error instanceof UploadRefused && error.status === 507) throw new UploadRefused(507, "file", STORAGE_FULL_FOR_FORM);
    throw error;
  }
}

/**
 * The form upload without JavaScript: streams one file to storage (never
 * holding it in memory) and registers it exactly as a direct upload would be.
 * Its bytes come out of `intake` (the form's reservation); without one, the
 * file gets a reservation of its own of up to 1 GB.
 */
export async function storeFormUpload(
  file: { stream: Readable | AsyncIterable<Buffer>; filename?: string | null; contentType?: string },
  clientIp?: string,
  intake?: UploadIntake,
) {
  const budget = intake ?? (await reserveUploadBytes({ kind: "file", bytes: MAX_UPLOAD_BYTES, clientIp }));
  try {
    countUpload(clientIp);
    const key = newOriginalKey(file.filename);
    db.insert(signedUploads)
      .values({ key, clientKey: networkKey(clientIp) })
      .run();
    try {
      const maxBytes = Math.min(MAX_UPLOAD_BYTES, budget.reserved);
      const { size } = await getMediaStorage().write(key, file.stream, {
        contentType: file.contentType || "application/octet-stream",
        maxBytes,
      });
      db.update(signedUploads).set({ bytes: size }).where(eq(signedUploads.key, key)).run();
      budget.stored(size);
    } catch (error) {
      await forgetObject(key);
      if (error instanceof UploadTooLargeError) throw new UploadRefused(413, "file", TOO_LARGE);
      throw error;
    }
    return key;
  } finally {
    if (!intake) budget.release();
  }
}

/** Registers objects stored by storeFormUpload once the whole form has been read. */
export async function registerFormUpload(key: string, details: UploadDetails) {
  const signed = findSignedUpload(key);
  if (!signed) throw new UploadRefused(400, "file", "This file is no longer waiting to be registered.");
  return registerStoredObject(signed, { ...details, originalName: keptFileName(details.originalName) });
}

/** The longest file name kept, as the API's `originalName`: a file system's limit, and the keepsake's names come from it. */
const MAX_FILE_NAME = 255;

/**
 * A form's file name as it is kept: a browser sends whatever name the file
 * has, of any length, where the API refuses one over MAX_FILE_NAME. A
 * visitor is not refused for a long name: it is shortened, keeping its
 * extension (".m4a"), by whole characters.
 */
function keptFileName(name: string): string {
  if (name.length <= MAX_FILE_NAME) return name;
  const extension = /\.[\p{L}\p{N}]{1,10}$/u.exec(name)?.[0] ?? "";
  let kept = "";
  // Counted as the API counts (UTF-16 units), never splitting a character in two.
  for (const character of name) {
    if (kept.length + character.length + extension.length > MAX_FILE_NAME) break;
    kept += character;
  }
  return kept + extension;
}

/** Removes an object stored by storeFormUpload when the rest of the form was refused. */
async function discardFormUpload(key: string) {
  await forgetObject(key);
}

const MAX_TEXT_BYTES = 2048;
const TEXT_TOO_LONG = "The name or email is longer than this form accepts. Please shorten it and try again.";
const FORM_UNREADABLE = "Part of the form could not be read. Please go back, reload the page and try again.";
const TOO_MANY_FILES = `You can share at most ${MAX_FILES_PER_VISIT} files at a time. Please choose fewer files.`;
const NOT_A_FORM = "Please use the form on the share page to upload files.";
const NO_FILES = "Please choose at least one photo or video to share.";

/** What the share form may hold before it is read any further (Remix's parser keeps none of these limits itself). */
export const SHARE_FORM: MultipartFormLimits = {
  maxBodyBytes: MAX_FORM_BODY_BYTES,
  // Ten files, three fields, and room for a visitor who picked a few files too many (told so below).
  maxParts: 64,
  maxHeaderBytes: 8 * 1024,
  fields: ["name", "email", "website", "notify"],
  maxFieldBytes: MAX_TEXT_BYTES,
  fileField: "files",
  maxFiles: MAX_FILES_PER_VISIT,
  maxFileBytes: MAX_UPLOAD_BYTES,
  // A file over 1 GB is named on the page; the visitor's other files are still shared.
  oversizedFile: "leave out",
  messages: {
    notAForm: NOT_A_FORM,
    lengthRequired: LENGTH_REQUIRED,
    tooLarge: FORM_TOO_LARGE,
    header: FORM_UNREADABLE,
    parts: TOO_MANY_FILES,
    fieldTooLong: TEXT_TOO_LONG,
  },
};

/**
 * Where the share form's files go: storage, each registered as waiting
 * (storeFormUpload), out of the bytes the form declared, reserved when it
 * arrived. Release it once the form has been answered.
 */
export function shareFormSink(clientIp: string | undefined): FileSink<string> & { release(): void } {
  let intake: UploadIntake | undefined;
  return {
    async open(bytes) {
      intake = await beginFormUpload(bytes, clientIp);
    },
    write: ({ data, filename, contentType }) => storeFormUpload({ stream: data, filename, contentType }, clientIp, intake),
    discard: discardFormUpload,
    release: () => intake?.release(),
  };
}

/** What the page shows after a form that was not (wholly) accepted. */
export interface ShareResult {
  errors: string[];
  fieldErrors: { name?: string[]; email?: string[] };
  uploaded: string[];
  /** What was typed, given back so a refused form keeps it (there is no JavaScript to keep it). */
  values?: { name: string; email: string; notify?: boolean };
  /** The alert's title when it is not "Upload Error" (the spec's "Missing Information"). */
  title?: string;
}

export type ShareOutcome =
  /** Every file accepted: the page confirms with a redirect. */
  | { done: true; uploaded: string[] }
  /** Something refused: the page shows this, with this status (some files may still have been accepted). */
  | { done: false; status: number; result: ShareResult; headers?: Record<string, string> };

/** A refusal's words in the visitor's language (those with a number in them by their message and values). */
function refusalWords(message: string, language: Language): string {
  const t = translate(language);
  if (message === TOO_MANY_FILES) return t("share.errors.tooManyFiles", { count: MAX_FILES_PER_VISIT });
  if (message === FORM_TOO_LARGE) return t("share.errors.formTooLarge", { count: MAX_FILES_PER_VISIT });
  return tooLongIn(message, t) ?? translateError(language, message);
}

/** A share form that could not be read (readMultipartForm's refusal) as the page's answer, in `language`; anything else is a fault and is thrown. */
export function refusedShareForm(error: unknown, language: Language = DEFAULT_LANGUAGE): ShareOutcome {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  return {
    done: false,
    status: refusal.status,
    result: { errors: [refusalWords(refusal.message, language)], fieldErrors: {}, uploaded: [] },
    headers: refusal.headers,
  };
}

/**
 * The share form once read: the name and e-mail checked, its files (stored
 * by shareFormSink) registered, or all discarded when the form is refused.
 * Refusals come back as the outcome, faults are thrown.
 */
export async function receiveShareForm(form: MultipartForm<string>, language: Language = DEFAULT_LANGUAGE): Promise<ShareOutcome> {
  const t = translate(language);
  const stored = form.files.map((file) => ({ key: file.stored, name: file.filename }));
  const discardAll = () => Promise.all(stored.map(({ key }) => discardFormUpload(key)));
  const refused = form.oversized.map((name) => t("share.errors.fileTooLarge", { name }));
  let tooLarge = refused.length > 0;
  const fileCount = form.files.length + form.oversized.length + form.filesLeftOut;

  const values = { name: (form.fields.name ?? "").trim(), email: (form.fields.email ?? "").trim() };
  // "E-mail me when the family has added my photos": a checkbox sends "on", or nothing.
  const notifyWhenPublished = form.fields.notify === "on";
  const who = SubmitterSchema.safeParse(values);
  const problems: ShareResult = { errors: [], fieldErrors: {}, uploaded: [], values: { ...values, notify: notifyWhenPublished } };
  if (!who.success) {
    for (const issue of who.error.issues) {
      const field = issue.path[0] === "email" ? "email" : "name";
      (problems.fieldErrors[field] ??= []).push(translateError(language, issue.message));
    }
    problems.title = t("share.toast.missingTitle");
    problems.errors.push(t("share.toast.missingDescription"));
  }
  if (fileCount > MAX_FILES_PER_VISIT) problems.errors.push(refusalWords(TOO_MANY_FILES, language));
  if (fileCount === 0) problems.errors.push(translateError(language, NO_FILES));
  if (problems.errors.length > 0) {
    await discardAll();
    return { done: false, status: fileCount > MAX_FILES_PER_VISIT ? 413 : 400, result: problems };
  }
  // A bot filled in the hidden field: thank it and keep nothing.
  if (form.fields.website) {
    await discardAll();
    return { done: true, uploaded: [] };
  }

  const uploaded: string[] = [];
  for (const file of stored) {
    try {
      await registerFormUpload(file.key, {
        submittedBy: submitterLabel(values.name, values.email),
        originalName: file.name,
        notifyWhenPublished,
        language,
      });
      uploaded.push(file.name);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.status === 413) tooLarge = true;
      refused.push(
        error.status === 415
          ? t("share.errors.notAccepted", { name: file.name, formats: t("share.notes.formats") })
          : t("share.errors.refused", { name: file.name, reason: refusalWords(error.message, language) }),
      );
    }
  }
  if (refused.length === 0) return { done: true, uploaded };
  const status = uploaded.length > 0 ? 200 : tooLarge ? 413 : 415;
  return {
    done: false,
    status,
    result: { errors: refused, fieldErrors: {}, uploaded, values: { ...values, notify: notifyWhenPublished } },
  };
}
