import { Link } from "@remix-run/react";
import type { AdminUpload } from "~/models/upload.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";
import { ModerationButtons } from "./ModerationButtons";

/** The sentence the admin reads about an upload processing gave up on. */
export function ProcessingProblem({ reason, className }: { reason: string; className?: string }) {
  return <p className={className ?? s.problem}>This file could not be processed: {reason}. It cannot be published.</p>;
}

export const dimensions = (upload: Pick<AdminUpload, "width" | "height">) =>
  upload.width && upload.height ? `${upload.width} × ${upload.height}` : null;

export function PendingUploads({ uploads }: { uploads: AdminUpload[] }) {
  if (uploads.length === 0) return <p className={ui.emptyState}>No pending uploads to review.</p>;
  return (
    <ul className={s.grid} aria-label="Pending uploads">
      {uploads.map((upload) => {
        const name = upload.originalName ?? "Unknown";
        const size = dimensions(upload);
        return (
          <li key={upload.id} className={s.uploadCard}>
            <Link to={`/admin/uploads/${upload.id}`} className={s.thumbLink} preventScrollReset aria-label={`Preview ${name}`}>
              {upload.type === "IMAGE" && upload.thumbnailUrl ? (
                <img src={upload.thumbnailUrl} alt="" className={s.thumb} loading="lazy" />
              ) : upload.type === "VIDEO" && upload.thumbnailUrl ? (
                <img src={upload.thumbnailUrl} alt="" className={s.thumb} loading="lazy" />
              ) : (
                <span className={s.videoPlaceholder}>{upload.type === "VIDEO" ? "Video" : "Photo"}</span>
              )}
            </Link>
            <span className={s.badge}>{upload.type}</span>
            <p className={s.cardText}>
              <strong>{name}</strong>
            </p>
            <p className={s.cardText}>{upload.submittedBy || "Anonymous"}</p>
            {size ? <p className={s.cardText}>{size}</p> : null}
            {upload.processingError ? <ProcessingProblem reason={upload.processingError} /> : null}
            <ModerationButtons
              id={upload.id}
              action="/admin/uploads"
              labels={{ approve: "Publish", reject: "Delete" }}
              canApprove={!upload.processingError}
            />
          </li>
        );
      })}
    </ul>
  );
}
