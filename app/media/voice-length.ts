// A voice memory's length in the words its sender reads: the clock the
// recorder and the lists show, and the refusals of a recording over ten
// minutes, shared by the server and the in-page recorder (apart from the
// upload limits, so pages without voices do not carry them).
import { VOICE_MAX_SECONDS } from "./limits";

/** m:ss, as a voice's length is shown (the site's formatDuration, here without its import so the recorder stays small). */
export function voiceClock(seconds: number) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * The refusal of a recording for its length, as its sender reads it: "This
 * recording is 10:01 long. …" (in another language, the catalog's
 * `voices.errors.tooLong` with `{length}`, found again by `tooLongLength`).
 */
export function voiceTooLong(seconds: number) {
  return `This recording is ${voiceClock(seconds)} long. Voice memories can be at most ${VOICE_MAX_SECONDS / 60} minutes.`;
}

/**
 * A voiceTooLong refusal in another language: `say` given the catalog's id
 * and the length the English names ("10:01"); undefined for any other words.
 */
export function tooLongIn(english: string, say: (id: "voices.errors.tooLong", values: { length: string }) => string): string | undefined {
  const length = /^This recording is (\d+:\d\d) long\. Voice memories can be at most /.exec(english)?.[1];
  return length === undefined ? undefined : say("voices.errors.tooLong", { length });
}
/** The refusal of a recording that decoded past the limit: how long it is is not known, only that it is too long. */
export const VOICE_OVER_LIMIT = `This recording is more than ${VOICE_MAX_SECONDS / 60} minutes long. Voice memories can be at most ${VOICE_MAX_SECONDS / 60} minutes.`;
