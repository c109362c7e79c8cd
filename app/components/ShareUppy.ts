// The share page's upload dialog: Uppy's Dashboard and its uploads to the
// site's signed URLs. Loaded with Uppy only when the visitor clicks "Choose
// Files" (ShareUploader), never with the page (docs/decisions/017). It takes
// showToast from the page rather than importing the Toaster: importing React
// from here would split React out of the entry chunk, a cost on every page.
import type { Meta, UppyFile } from "@uppy/core";
import uppyCoreStyles from "@uppy/core/css/style.min.css";
import uppyDashboardStyles from "@uppy/dashboard/css/style.min.css";
import type { showToast as ShowToast } from "~/components/Toaster";
import { ACCEPTED_FILE_TYPES, MAX_FILES_PER_VISIT, MAX_UPLOAD_BYTES, MULTIPART_THRESHOLD_BYTES } from "~/media/limits";
import { uploadCompleteToast } from "~/uploads/upload.schema";
import { submitterLabel } from "~/utils/submitted-by";
import type { Language } from "~/i18n/languages";
import type { Translator } from "~/i18n/words";
import { dashboardStrings } from "./share-uppy-locale";

type FileMeta = Meta & { width?: number; height?: number; durationSec?: number };

/** An error carrying the sentence the site answered with, shown to the visitor as it is. */
type RefusalError = Error & { refusal?: true; source?: { status?: number } };

/** The first sentence of the API's `{"errors": {field: [sentence]}}`, if the body is one. */
function refusalSentence(body: string): string | null {
  try {
    const errors = (JSON.parse(body) as { errors?: Record<string, unknown> }).errors;
    const first = errors ? Object.values(errors).flat()[0] : undefined;
    return typeof first === "string" ? first : null;
  } catch {
    return null;
  }
}

async function requestJson<T>(url: string, init: RequestInit = {}, failure = "Request failed"): Promise<T> {
  const response = await fetch(url, {
    credentials: "same-origin",
    ...init,
    headers: init.body ? { "Content-Type": "application/json", ...init.headers } : init.headers,
  });
  if (!response.ok) {
    const sentence = refusalSentence(await response.text().catch(() => ""));
    const error: RefusalError = new Error(sentence ?? `${failure}: ${response.status}`);
    if (sentence) error.refusal = true;
    // Uppy decides from the status whether to try again (429 and 5xx, after a pause).
    error.source = { status: response.status };
    throw error;
  }
  return (await response.json()) as T;
}

/** A refused PUT (storage full, too large, too much today) told in the site's words instead of "Non 2xx". */
function withRefusalSentence(error: unknown): unknown {
  const source = (error as { source?: { responseText?: unknown } } | null)?.source;
  const sentence = typeof source?.responseText === "string" ? refusalSentence(source.responseText) : null;
  if (error instanceof Error && sentence) {
    // "Request has expired" keeps Uppy's own meaning: it signs the part again and retries.
    error.message = sentence;
    if (sentence !== "Request has expired") (error as RefusalError).refusal = true;
  }
  return error;
}

const withKey = (path: string, key: string) => `${path}?key=${encodeURIComponent(key)}`;

/** Adds a stylesheet to the document and waits for it (once per address). */
function addStylesheet(href: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return resolve();
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => reject(new Error(`The stylesheet ${href} could not be loaded`));
    document.head.appendChild(link);
  });
}

export type ShareUppy = import("@uppy/core").default<FileMeta, Record<string, never>>;

/**
 * Uppy with its Dashboard (a modal over the page) and its uploads, once its
 * styles are in place; null if the page went away meanwhile.
 */
export async function createShareUppy({
  nameInputId,
  emailInputId,
  notifyInputId,
  onUploaded,
  isCancelled,
  showToast,
  t,
  tError,
  language,
}: {
  nameInputId: string;
  emailInputId: string;
  notifyInputId?: string;
  onUploaded: (name: string) => void;
  isCancelled: () => boolean;
  showToast: typeof ShowToast;
  /** The page's words (the share namespace), and its language: the dialog speaks it too. */
  t: Translator["t"];
  tError: Translator["tError"];
  language: Language;
}): Promise<ShareUppy | null> {
  const uploadError = { title: t("share.uploadError"), description: t("share.toast.failed"), type: "destructive" as const };
  const missing = { title: t("share.toast.missingTitle"), description: t("share.toast.missingDescription") };
  const readInput = (id: string) => (document.getElementById(id) as HTMLInputElement | null)?.value.trim() ?? "";
  let submittedBy = "";
  let notifyWhenPublished = false;
  await Promise.all([addStylesheet(uppyCoreStyles), addStylesheet(uppyDashboardStyles)]);
  const [{ default: Uppy }, { default: Dashboard }, { default: AwsS3 }] = await Promise.all([
    import("@uppy/core"),
    import("@uppy/dashboard"),
    import("@uppy/aws-s3"),
  ]);
  if (isCancelled()) return null;
  // A phone or tablet has nowhere to drag files from: there the dialog offers choosing alone.
  const touchOnly = window.matchMedia("(hover: none) and (pointer: coarse)").matches;
  // English is Uppy's own words with the site's few; any other language, the site's words for all it shows.
  const locale = dashboardStrings(language, t, touchOnly);
  const uppy = new Uppy<FileMeta, Record<string, never>>({
    id: "share",
    ...(locale ? { locale } : {}),
    autoProceed: false,
    infoTimeout: 5000,
    restrictions: {
      maxNumberOfFiles: MAX_FILES_PER_VISIT,
      maxFileSize: MAX_UPLOAD_BYTES,
      allowedFileTypes: [...ACCEPTED_FILE_TYPES],
    },
    onBeforeUpload: () => {
      const name = readInput(nameInputId);
      const email = readInput(emailInputId);
      if (!name || !email) {
        showToast({ ...missing, type: "destructive" });
        uppy.info(missing.description, "error", 5000);
        return false;
      }
      submittedBy = submitterLabel(name, email);
      notifyWhenPublished = notifyInputId ? ((document.getElementById(notifyInputId) as HTMLInputElement | null)?.checked ?? false) : false;
      return true;
    },
  });
  uppy.use(Dashboard, {
    // The modal Dashboard is 750 × 550 on large screens by Uppy's own styles (the spec's size).
    inline: false,
    thumbnailWidth: 280,
    thumbnailType: "image/jpeg",
    proudlyDisplayPoweredByUppy: false,
    closeModalOnClickOutside: false,
    note: t("share.uppy.note"),
    locale: locale ?? {
      strings: {
        // Choosing comes first in words; dropping and pasting still work where there is a mouse.
        dropPasteFiles: touchOnly ? "%{browseFiles}" : "%{browseFiles} (or drop them here)",
        browseFiles: "Choose photos and videos from this device",
        dropHint: "Let go to add them here",
      },
    },
  });
  uppy.use(AwsS3, {
    limit: 6,
    retryDelays: [0, 1000, 3000, 5000],
    shouldUseMultipart: (file) => (file.size ?? 0) > MULTIPART_THRESHOLD_BYTES,
    uploadPartBytes: async (options) => {
      try {
        return await AwsS3.uploadPartBytes(options);
      } catch (error) {
        throw withRefusalSentence(error);
      }
    },
    getUploadParameters: async (file) => {
      // The size lets the site say at once when a file cannot fit, before it is sent.
      const { uploadURL } = await requestJson<{ uploadURL: string }>(
        "/api/uploads/sign",
        { method: "POST", body: JSON.stringify({ filename: file.name ?? null, size: file.size ?? null }) },
        "Failed to get upload URL",
      );
      return { method: "PUT", url: uploadURL, headers: { "Content-Type": file.type || "application/octet-stream" } };
    },
    createMultipartUpload: (file) =>
      requestJson<{ uploadId: string; key: string }>("/api/uploads/s3/multipart", {
        method: "POST",
        body: JSON.stringify({ filename: file.name ?? null, type: file.type ?? null, size: file.size ?? null }),
      }),
    signPart: (_file, { uploadId, key, partNumber, signal }) =>
      requestJson<{ url: string }>(withKey(`/api/uploads/s3/multipart/${encodeURIComponent(uploadId)}/${partNumber}`, key), { signal }),
    listParts: (_file, { uploadId, key }) =>
      requestJson(withKey(`/api/uploads/s3/multipart/${encodeURIComponent(uploadId ?? "")}`, key ?? "")),
    completeMultipartUpload: (_file, { uploadId, key, parts }) =>
      requestJson<{ location: string }>(withKey(`/api/uploads/s3/multipart/${encodeURIComponent(uploadId)}/complete`, key), {
        method: "POST",
        body: JSON.stringify({ parts }),
      }),
    abortMultipartUpload: async (_file, { uploadId, key }) => {
      await requestJson(withKey(`/api/uploads/s3/multipart/${encodeURIComponent(uploadId ?? "")}`, key ?? ""), { method: "DELETE" });
    },
  });
  uppy.on("upload-error", (file, error) => {
    // Uppy says only "Failed to upload …"; a refusal of the site's says why, in its words.
    if (!(error as RefusalError).refusal) return;
    const reason = tError(error.message);
    const description = file?.name ? t("share.errors.refused", { name: file.name, reason }) : reason;
    uppy.info(description, "error", 10_000);
    showToast({ title: uploadError.title, description, type: "destructive" });
  });
  // Files confirmed in this batch of `filesSent`, for the toast's words; a new batch starts again.
  let filesDone = 0;
  let filesSent = 0;
  uppy.on("upload", (_uploadID, files) => {
    filesDone = 0;
    filesSent = files.length;
  });
  uppy.on("upload-success", (file: UppyFile<FileMeta, Record<string, never>> | undefined, response) => {
    if (!file) return;
    void (async () => {
      try {
        await requestJson("/api/uploads/complete", {
          method: "POST",
          body: JSON.stringify({
            uploadURL: response.uploadURL,
            submittedBy,
            type: file.type?.startsWith("video/") ? "VIDEO" : "IMAGE",
            originalName: file.name || "Unknown",
            width: file.meta.width ?? null,
            height: file.meta.height ?? null,
            durationSec: file.meta.durationSec ?? null,
            notifyWhenPublished,
          }),
        });
        // One toast at a time: each finished file replaces it with the count so far.
        filesDone += 1;
        showToast(uploadCompleteToast(filesDone, Math.max(filesSent, filesDone), t));
        onUploaded(file.name || "Unknown");
      } catch (error) {
        showToast(uploadError);
        if ((error as RefusalError).refusal)
          uppy.info(t("share.errors.refused", { name: file.name, reason: tError((error as Error).message) }), "error", 10_000);
      }
    })();
  });
  return uppy;
}
