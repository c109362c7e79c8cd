// Upload limits of the spec (§5, §9), shared by the browser widget, the
// no-JavaScript form and the server. Nothing here touches the server.

/** 1 GB per file, exactly as the spec counts it. */
export const MAX_UPLOAD_BYTES = 1_073_741_824;
export const MAX_FILES_PER_VISIT = 10;
/** Files above this size go up in parts, so an interrupted upload resumes. */
export const MULTIPART_THRESHOLD_BYTES = 100 * 1024 * 1024;
export const MAX_PARTS = 10_000;
export const GALLERY_PAGE_SIZE = 20;
export const GALLERY_MAX_LIMIT = 100;

/** What the file picker offers; the server decides from the bytes themselves. */
export const ACCEPTED_FILE_TYPES = [
  "image/jpeg",
  "image/png",
  "image/heic",
  "image/heif",
  "image/webp",
  "image/gif",
  "video/mp4",
  "video/quicktime",
  "video/x-msvideo",
  ".jpg",
  ".jpeg",
  ".png",
  ".heic",
  ".heif",
  ".webp",
  ".gif",
  ".mp4",
  ".mov",
  ".avi",
] as const;

/** The names voice recordings come with (the server still decides from the bytes). */
export const VOICE_EXTENSIONS = ["m4a", "webm", "ogg", "oga", "opus", "3gp", "mp3", "wav", "amr", "aac"] as const;
/** A voice memory's longest length, in seconds: ten minutes. */
export const VOICE_MAX_SECONDS = 10 * 60;
/**
 * A recording's length in whole seconds, as it is stored, shown and held to
 * VOICE_MAX_SECONDS: rounded up, past a twentieth of a second of slack (a
 * 10:00.4 recording is 601 seconds, over the limit; 10:00.03 is 600). The
 * in-page recorder shows the length it made the same way.
 */
export const voiceSeconds = (seconds: number) => Math.ceil(seconds - 0.05);
/** The most a voice memory's typed line (its text alternative) may hold. */
export const VOICE_LINE_MAX = 300;
