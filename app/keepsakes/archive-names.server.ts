import type { Upload } from "../../db/schema";
import { safeFileName, safeNamePart, splitExtension } from "~/utils/file-name";
import { formatIsoDate } from "~/utils/time";
import { parseSubmittedBy } from "~/utils/submitted-by";

// The names the family's archive gives the files visitors sent: the day, the
// sender's name (never the email) and the original name, with the extension
// its type needs, safe on every system.

/** The extensions a file of each type may have; another one gets the first added, so the file opens. */
const EXTENSIONS: Record<string, string[]> = {
  "image/jpeg": [".jpg", ".jpeg", ".jpe"],
  "image/png": [".png"],
  "image/gif": [".gif"],
  "image/webp": [".webp"],
  "image/heic": [".heic", ".heif"],
  "image/heif": [".heif", ".heic"],
  "video/mp4": [".mp4", ".m4v"],
  "video/quicktime": [".mov", ".qt"],
  "video/x-msvideo": [".avi"],
};

/** A voice memory's: MP4's container holds iPhone (.m4a) and Android (.3gp) recordings alike. */
const VOICE_EXTENSIONS: Record<string, string[]> = {
  "audio/mp4": [".m4a", ".mp4", ".m4b", ".3gp", ".3gpp", ".3g2"],
  "video/mp4": [".mp4", ".m4a", ".3gp", ".3gpp", ".3g2"],
  "video/quicktime": [".mov", ".qt"],
  "audio/webm": [".webm", ".weba"],
  "audio/ogg": [".ogg", ".oga", ".opus"],
  "audio/wav": [".wav", ".wave"],
  "audio/amr": [".amr"],
  "audio/mpeg": [".mp3"],
  "audio/aac": [".aac"],
};

const FALLBACK_NAME = { IMAGE: "photo", VIDEO: "video", AUDIO: "voice" } as const;

/** Who sent an upload, by name only: "Ann (ann@example.com)" → "Ann"; "" when nobody is named. */
export function senderName(submittedBy: string | null): string {
  if (!submittedBy) return "";
  return parseSubmittedBy(submittedBy)?.name ?? submittedBy.replace(/\S+@\S+/g, "").trim();
}

/** `YYYY-MM-DD_<sender>_<original name>`, safe on every system, with the extension its type needs. */
export function archiveMediaName(
  upload: Pick<Upload, "id" | "type" | "createdAt" | "submittedBy" | "originalName" | "mimeType">,
  timeZone: string,
) {
  const known = (upload.type === "AUDIO" ? VOICE_EXTENSIONS : EXTENSIONS)[upload.mimeType ?? ""] ?? [];
  let original = upload.originalName?.trim() || `${FALLBACK_NAME[upload.type]}-${upload.id}`;
  if (known.length > 0 && !known.includes(splitExtension(original).ext.toLowerCase())) original += known[0];
  const sender = safeNamePart(senderName(upload.submittedBy), 40, "Anonymous");
  return safeFileName(`${formatIsoDate(upload.createdAt, timeZone)}_${sender}_${original}`);
}
