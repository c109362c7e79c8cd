// The voice form, on the server: one multipart request with the recording,
// the name, an optional e-mail and line, the permission and "tell me when it
// is added", from the guest book, the share page or /voices, with or without
// the in-page recorder. Read by readMultipartForm within VOICE_FORM's limits,
// its recording streamed to storage as it arrives (the share form's sink),
// checked by one schema, then registered as an AUDIO upload. Any refusal
// keeps nothing: the stored recording is removed.
import { MAX_UPLOAD_BYTES, VOICE_LINE_MAX } from "~/media/limits";
import { mailEnabled } from "~/mail/outbox.server";
import { FormRefused, readMultipartForm, type MultipartForm, type MultipartFormLimits } from "~/platform/multipart.server";
import { asRefusal, Refusal } from "~/platform/refusal.server";
import { countSubmission, requireSubmissionAllowed, type SubmissionSource } from "~/platform/submission-limit.server";
import { SubmitterSchema } from "~/uploads/complete-upload.schema";
import { TOO_LARGE } from "~/uploads/upload-budget.server";
import { registerFormUpload, shareFormSink } from "~/uploads/upload-form.server";
import { forgetObject, LENGTH_REQUIRED } from "~/uploads/upload-intake.server";
import { EmailSchema } from "~/utils/email";
import { submitterLabel } from "~/utils/submitted-by";
import { z } from "~/utils/zod";
import { DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";
import {
  LINE_TOO_LONG,
  NO_RECORDING,
  NOTIFY_NEEDS_EMAIL,
  VOICE_FIELDS,
  VOICE_FORM_PAGES,
  type VoiceField,
  type VoiceFormPage,
  type VoiceFormReply,
  type VoiceFormValues,
} from "./voice-form.constants";
import { recentCopyOfVoice } from "./voices.server";

const ONE_AT_A_TIME = "Please send one recording at a time.";

/** What the voice form may hold before it is read any further. */
export const VOICE_FORM: MultipartFormLimits = {
  // One recording of at most 1 GB and a few short fields.
  maxBodyBytes: MAX_UPLOAD_BYTES + 64 * 1024,
  // Seven fields and one file; a little room for a browser's empty extra part.
  maxParts: 12,
  maxHeaderBytes: 4 * 1024,
  fields: ["name", "email", "line", "canDisplay", "notify", "website", "from"],
  // A line of 300 characters in any script (at most 4 bytes each in UTF-8), with its line breaks.
  maxFieldBytes: 4 * VOICE_LINE_MAX + 600,
  fileField: "recording",
  // A second recording is read, dropped and refused (filesLeftOut).
  maxFiles: 1,
  maxFileBytes: MAX_UPLOAD_BYTES,
  oversizedFile: { refuse: TOO_LARGE },
  messages: {
    notAForm: "Please use the voice form on the guest book or the share page to send a recording.",
    lengthRequired: LENGTH_REQUIRED,
    tooLarge: TOO_LARGE,
    header: "Part of the form could not be read. Please go back, reload the page and try again.",
    parts: "The form had more parts than a voice memory needs. Please go back, reload the page and try again.",
    fieldTooLong: "This is longer than the form accepts. Please shorten it and try again.",
  },
};

const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on");
const blankAsMissing = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** The voice form's one schema: its fields as the multipart reader gives them, and how many recordings came. */
const VoiceFormSchema = z
  .object({
    name: SubmitterSchema.shape.name,
    email: z.preprocess(blankAsMissing, EmailSchema.optional()),
    // Browsers send a textarea's line breaks as CRLF; counted and kept as plain newlines.
    line: z.preprocess(
      (value) => (typeof value === "string" ? value.replace(/\r\n?/g, "\n") : ""),
      z.string().trim().max(VOICE_LINE_MAX, LINE_TOO_LONG),
    ),
    canDisplay: checkbox,
    notify: checkbox,
    // Honeypot: hidden from people, filled in by bots.
    website: z.string().optional(),
    recordings: z.number().int().min(1, NO_RECORDING).max(1, ONE_AT_A_TIME),
  })
  .superRefine(({ notify, email }, ctx) => {
    if (notify && !email) ctx.addIssue({ code: "custom", path: ["email"], message: NOTIFY_NEEDS_EMAIL });
  });

/** The page a form came from, when it is one that shows the form; else the form's own page. */
function voiceFormPage(from: unknown): VoiceFormPage {
  return VOICE_FORM_PAGES.find((page) => page === from) ?? "/voices";
}

export type VoiceOutcome =
  /** Registered (null: a bot's, thanked and not kept). */
  | { done: true; id: number | null; from: VoiceFormPage }
  | { done: false; status: number; reply: VoiceFormReply; headers?: Record<string, string> };

/** What was typed, as the form is given back. */
function typedValues(fields: Readonly<Record<string, string>>): VoiceFormValues {
  return {
    name: fields.name ?? "",
    email: fields.email ?? "",
    line: fields.line ?? "",
    canDisplay: fields.canDisplay === "on",
    notify: fields.notify === "on",
  };
}

/** The input a refusal concerns: the typed fields by name, everything else (the file, the form as a whole) the recording. */
function refusedField(field: string): VoiceField {
  return field !== "recording" && Object.hasOwn(VOICE_FIELDS, field) ? (field as VoiceField) : "recording";
}

function refusalOutcome(refusal: Refusal, fields: Readonly<Record<string, string>>): VoiceOutcome {
  return {
    done: false,
    status: refusal.status,
    reply: { errors: { [refusedField(refusal.field)]: [refusal.message] }, values: typedValues(fields), from: voiceFormPage(fields.from) },
    headers: refusal.headers,
  };
}

/**
 * A voice form that could not be read (readMultipartForm's refusal, which
 * has removed anything it stored) as the answer; a fault is thrown.
 */
function refusedVoiceForm(error: unknown): VoiceOutcome {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  return refusalOutcome(refusal, error instanceof FormRefused ? error.fields : {});
}

/**
 * The voice form once read (its recording stored by the share form's sink):
 * checked, then registered as a voice memory waiting for the family. Every
 * refusal removes the stored recording and gives back what was typed.
 */
async function receiveVoiceForm(form: MultipartForm<string>, source: SubmissionSource, language: Language): Promise<VoiceOutcome> {
  const stored = form.files.map((file) => ({ key: file.stored, name: file.filename }));
  const discardAll = () => Promise.all(stored.map(({ key }) => forgetObject(key)));
  // "Tell me when it is added" is offered only when the site sends e-mail; otherwise it means nothing.
  const fields = mailEnabled() ? form.fields : { ...form.fields, notify: "" };
  const parsed = VoiceFormSchema.safeParse({ ...fields, name: fields.name ?? "", recordings: form.files.length + form.filesLeftOut });
  const from = voiceFormPage(fields.from);
  if (!parsed.success) {
    await discardAll();
    const errors: VoiceFormReply["errors"] = {};
    for (const issue of parsed.error.issues) {
      const field = refusedField(String(issue.path[0] === "recordings" ? "recording" : issue.path[0]));
      if (!errors[field]?.includes(issue.message)) (errors[field] ??= []).push(issue.message);
    }
    return { done: false, status: form.filesLeftOut > 0 ? 413 : 400, reply: { errors, values: typedValues(fields), from } };
  }
  const voice = parsed.data;
  // A bot filled in the hidden field: thank it and keep nothing.
  if (voice.website) {
    await discardAll();
    return { done: true, id: null, from };
  }
  const [recording] = stored;
  // The voice form asks for a name alone; the address, when given, as the share form writes it.
  const submittedBy = voice.email ? submitterLabel(voice.name, voice.email) : voice.name;
  const caption = voice.line || null;
  // The same voice sent again (Back and Send, a second tap on a slow phone) is already kept: answered as the first.
  const copy = recentCopyOfVoice({ submittedBy, caption, sizeBytes: form.files[0]!.size });
  if (copy !== undefined) {
    await discardAll();
    return { done: true, id: copy, from };
  }
  try {
    const registered = await registerFormUpload(recording!.key, {
      submittedBy,
      originalName: recording!.name,
      notifyWhenPublished: voice.notify,
      declaredType: "AUDIO",
      caption,
      canDisplay: voice.canDisplay,
      language,
    });
    countSubmission(source);
    return { done: true, id: registered.id, from };
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    // Refused by the intake (not a recording, too long, too many): it has removed what it could; nothing is left.
    await discardAll();
    return refusalOutcome(new Refusal(refusal.status, "recording", refusal.message, refusal.retryAfterSeconds), fields);
  }
}

/**
 * A voice form's request, read and answered: its body within VOICE_FORM's
 * limits (the bytes it declares reserved against the storage budget first),
 * its recording streamed to storage, then checked and registered. The
 * outcome is the same for the form's page and the recorder's JSON.
 */
export async function receiveVoiceRequest(
  request: Request,
  clientIp: string | undefined,
  language: Language = DEFAULT_LANGUAGE,
): Promise<VoiceOutcome> {
  const source = { clientIp };
  // A network that has sent its allowance of messages and voices is told so before its recording is read.
  try {
    requireSubmissionAllowed(source);
  } catch (error) {
    return refusedVoiceForm(error);
  }
  const sink = shareFormSink(clientIp);
  try {
    return await readMultipartForm(request, VOICE_FORM, sink).then((form) => receiveVoiceForm(form, source, language), refusedVoiceForm);
  } finally {
    sink.release();
  }
}
