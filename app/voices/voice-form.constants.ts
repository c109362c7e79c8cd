// The voice form's words, fields and answers: what the server, the form's
// markup and the in-page recorder share. Free of zod and of server code, so
// the recorder (loaded on demand in the browser) can take them.
import { VOICE_LINE_MAX, VOICE_MAX_SECONDS, voiceSeconds } from "~/media/limits";
import { tooLongIn, voiceClock } from "~/media/voice-length";

/** The pages that show the form, where a sent voice comes back to. */
export const VOICE_FORM_PAGES = ["/guestbook", "/share", "/voices"] as const;
export type VoiceFormPage = (typeof VOICE_FORM_PAGES)[number];

/** The inputs a refusal can name, in the form's order, with the words of their labels. */
export const VOICE_FIELDS = {
  recording: "Your recording",
  name: "Name",
  email: "Email",
  line: "A line about it",
} as const;
export type VoiceField = keyof typeof VOICE_FIELDS;

/** Each input's id: one voice form per page, beside others (the guest book's own "Name *"). */
export const voiceInputId = (field: VoiceField | "canDisplay" | "notify") => `voice-${field}`;
export const VOICE_FORM_ID = "voice-form";

export const VOICE_SENT = {
  title: "Voice Memory Submitted",
  description: "Thank you for sharing your voice. It will be reviewed before being published.",
} as const;

export const NO_RECORDING = "Please record or choose a voice memory to send.";
export const NOTIFY_NEEDS_EMAIL = "Please give your email so we can tell you when it is added.";
export const LINE_TOO_LONG = `The line must be at most ${VOICE_LINE_MAX} characters.`;
/** A browser cannot keep a chosen file in a page sent back to it: after a refusal, the visitor chooses it again. */
export const CHOOSE_AGAIN = "Your recording was not kept. Please record or choose it again before sending.";
export const SEND_FAILED = "The voice memory could not be sent. Please check your connection and try again.";

/** The in-page recorder's words. */
export const RECORDER = {
  record: "Record",
  stop: "Stop",
  started: "Recording has started. Press Stop when you have finished.",
  listen: "Listen",
  again: "Record again",
  send: "Send Voice Memory",
  sending: "Sending...",
  player: "Your recording",
  hint: "Press Record to record here, or choose a recording you have already made.",
  noMicrophone: "Your browser did not let this page use the microphone. You can choose a recording instead.",
  nothing: "Nothing was recorded. Please press Record and speak.",
} as const;

/** The form's words in the visitor's language, as the server renders it. */
export interface VoiceWords {
  t: (id: string, values?: Record<string, unknown>) => string;
  /** A refusal's English words in the visitor's language. */
  tError: (english: string) => string;
}

/**
 * What the recorder says in the visitor's language (the form's `data-words`,
 * written by the server when it is not English): its buttons, the fields'
 * names, the toast, its two clocks with `{time}` and `{max}`, the refusal
 * for a recording's length with `{length}`, and every other refusal by its
 * English words.
 */
export interface RecorderWords {
  recorder: Record<keyof typeof RECORDER, string>;
  fields: Record<VoiceField, string>;
  sent: { title: string; description: string };
  recording: string;
  recorded: string;
  tooLong: string;
  errors: Record<string, string>;
}

/** A refusal (the server's English words) in the visitor's language: `words` as the server wrote them, or English. */
export function refusalIn(english: string, words: Pick<RecorderWords, "tooLong" | "errors"> | null): string {
  if (!words) return english;
  return tooLongIn(english, (_id, { length }) => words.tooLong.replace("{length}", length)) ?? words.errors[english] ?? english;
}

/** "Recording… 0:12 of 10:00" while the microphone is on (`template`: the same in the visitor's language). */
export function recordingStatus(seconds: number, template?: string): string {
  if (template) return template.replace("{time}", voiceClock(seconds)).replace("{max}", voiceClock(VOICE_MAX_SECONDS));
  return `Recording… ${voiceClock(seconds)} of ${voiceClock(VOICE_MAX_SECONDS)}`;
}

/** "Recorded 0:42. Listen to it, record again, or send it." once stopped. */
export function recordedStatus(seconds: number, template?: string): string {
  // Rounded as the server rounds a recording's length, so the list shows the same.
  const length = voiceClock(voiceSeconds(seconds));
  if (template) return template.replace("{time}", length);
  return `Recorded ${length}. Listen to it, record again, or send it.`;
}

/** What was typed, given back with a refusal (a page without JavaScript keeps nothing itself). */
export interface VoiceFormValues {
  name: string;
  email: string;
  line: string;
  canDisplay: boolean;
  notify: boolean;
}

/**
 * A refused voice form: each field's messages, what was typed, and the page
 * it was sent from. `errors` is the API's shape (`{"errors": {field: [...]}}`).
 */
export interface VoiceFormReply {
  errors: Partial<Record<VoiceField, string[]>>;
  values: VoiceFormValues;
  from: VoiceFormPage;
}
