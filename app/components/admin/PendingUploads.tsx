import { Link, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import type { AdminUpload, ProcessingState } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { formatBytes } from "~/utils/bytes";
import * as s from "./admin.css";
import { AdminThumbnail } from "./AdminThumbnail";
import { VoiceNotes, VoicePanel } from "./AdminVoice";
import { UPLOAD_KIND } from "~/uploads/upload-words";
import { ModerationButtons } from "./ModerationButtons";
import { useAdminRole } from "./admin-role";

/** The sentence the admin reads about an upload processing gave up on. */
export function ProcessingProblem({ reason, className }: { reason: string; className?: string }) {
  return <p className={className ?? s.problem}>This file could not be processed: {reason}. It cannot be published.</p>;
}

const minutes = (count: number) => (count === 1 ? "1 minute" : `${count} minutes`);

/** The words for where an upload's processing stands; a failure has its own sentence (ProcessingProblem). */
function processingLabel(processing: ProcessingState, type: AdminUpload["type"]) {
  const what = UPLOAD_KIND[type];
  switch (processing.state) {
    case "waiting":
      return `Waiting to be prepared: this ${what} can be published once it is ready.`;
    case "processing":
      if (processing.percent === null) return `Being prepared: this ${what} can be published once it is ready.`;
      if (processing.minutesLeft === null) {
        return `Being prepared: ${processing.percent}% done. This ${what} can be published once it is ready.`;
      }
      return `Being prepared: ${processing.percent}% done, still preparing — about ${minutes(processing.minutesLeft)}. This ${what} can be published once it is ready.`;
    case "ready":
      return "Ready to publish.";
    case "failed":
      return null;
  }
}

/**
 * Where an upload's processing stands, for the admin: waiting, being
 * prepared (a video's web copy: how far), ready, or why it failed. Without
 * JavaScript a link shows it afresh; with it, the page asks again every 5 s
 * while something is still being prepared.
 */
export function ProcessingStatus({ upload, className }: { upload: Pick<AdminUpload, "processing" | "type">; className?: string }) {
  const { processing } = upload;
  if (processing.state === "failed") return <ProcessingProblem reason={processing.reason} className={className} />;
  return (
    <p className={className ?? s.processingNote} role="status" data-processing={processing.state}>
      {processingLabel(processing, upload.type)}
    </p>
  );
}

/** A link to see the processing state afresh (without JavaScript), and an automatic check every 5 s with it. */
export function RefreshWhileProcessing({ uploads }: { uploads: Pick<AdminUpload, "processing">[] }) {
  const location = useLocation();
  const { revalidate, state } = useRevalidator();
  const busy = uploads.some((upload) => upload.processing.state === "waiting" || upload.processing.state === "processing");
  useEffect(() => {
    if (!busy || state !== "idle") return;
    const timer = setTimeout(revalidate, 5000);
    return () => clearTimeout(timer);
  }, [busy, state, revalidate]);
  if (!busy) return null;
  return (
    <p className={s.cardText}>
      <a href={location.pathname + location.search}>Check again</a> to see whether it is ready.
    </p>
  );
}

export const dimensions = (upload: Pick<AdminUpload, "width" | "height">) =>
  upload.width && upload.height ? `${upload.width} × ${upload.height}` : null;

/** The size of the file as it was sent ("2.4 MB"), or null when it was not recorded. */
export const fileSize = (upload: Pick<AdminUpload, "sizeBytes">) => (upload.sizeBytes === null ? null : formatBytes(upload.sizeBytes));

/** The waiting photos, videos and voice memories; their forms post to `action` (the tab, with ?show=all when the family asked to see them). */
export function PendingUploads({ uploads, action = "/admin/uploads" }: { uploads: AdminUpload[]; action?: string }) {
  // A helper's delete is set aside for the family, files and all: her button says so.
  const reject = useAdminRole() === "helper" ? "Set aside" : "Delete";
  if (uploads.length === 0) return <p className={ui.emptyState}>No pending uploads to review.</p>;
  return (
    <>
      <RefreshWhileProcessing uploads={uploads} />
      <ul className={s.grid} aria-label="Pending uploads">
        {uploads.map((upload) => {
          const name = upload.originalName ?? "Unknown";
          const size = dimensions(upload);
          const bytes = fileSize(upload);
          const preview = `/admin/uploads/${upload.id}`;
          return (
            <li key={upload.id} className={s.uploadCard}>
              {upload.type === "AUDIO" ? (
                <VoicePanel upload={upload} previewTo={preview} />
              ) : (
                <Link to={preview} className={s.thumbLink} preventScrollReset aria-label={`Preview ${name}`}>
                  {upload.thumbnailUrl ? (
                    <AdminThumbnail upload={upload} />
                  ) : (
                    <span className={s.videoPlaceholder}>{upload.type === "VIDEO" ? "Video" : "Photo"}</span>
                  )}
                </Link>
              )}
              <span className={s.badge}>{upload.type}</span>
              <p className={s.cardText}>
                <strong>{name}</strong>
              </p>
              <p className={s.cardText}>{upload.submittedBy || "Anonymous"}</p>
              {upload.type === "AUDIO" ? <VoiceNotes upload={upload} /> : null}
              {size ? <p className={s.cardText}>{size}</p> : null}
              {bytes ? <p className={s.cardText}>File size: {bytes}</p> : null}
              <ProcessingStatus upload={upload} />
              <ModerationButtons
                id={upload.id}
                action={action}
                labels={{ approve: "Publish", reject }}
                canApprove={upload.processing.state === "ready"}
              />
            </li>
          );
        })}
      </ul>
    </>
  );
}
