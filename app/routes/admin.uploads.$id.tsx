import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { uploadFor } from "~/admins/contact-details";
import { AdminDialog } from "~/components/AdminDialog";
import * as d from "~/components/AdminDialog.css";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { ModerationButtons } from "~/components/admin/ModerationButtons";
import { ModerationRecord } from "~/components/admin/ModerationRecord";
import { dimensions, fileSize, ProcessingProblem, ProcessingStatus, RefreshWhileProcessing } from "~/components/admin/PendingUploads";
import { useSite } from "~/site/site-view";
import { getAdminUpload } from "~/uploads/upload.server";
import * as ui from "~/styles/ui.css";
import { moderateUploadForm } from "~/routes/admin-actions.server";
import { invariantResponse, PRIVATE_NO_STORE } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { setAsideAddress } from "~/utils/set-aside";
import { useAdminRole } from "~/components/admin/admin-role";
import { formatDateTime, formatDuration } from "~/utils/time";
import { VoiceNotes, VoicePlayer } from "~/components/admin/AdminVoice";
import { publishedPlace } from "~/uploads/upload-words";

const FORMATS: Record<string, string> = {
  "image/jpeg": "JPG",
  "image/png": "PNG",
  "image/heic": "HEIC",
  "image/heif": "HEIF",
  "image/webp": "WebP",
  "image/gif": "GIF",
  "video/mp4": "MP4",
  "video/quicktime": "MOV",
  "video/x-msvideo": "AVI",
  // Voice memories, as phones and browsers record them.
  "audio/mp4": "M4A",
  "audio/webm": "WebM",
  "audio/ogg": "Ogg",
  "audio/3gpp": "3GP",
  "audio/mpeg": "MP3",
  "audio/wav": "WAV",
  "audio/aac": "AAC",
  "audio/amr": "AMR",
};

/** The preview's Publish button: where it takes the upload (a voice kept for the family goes nowhere visitors are). */
const publishLabel = (upload: { type: string; canDisplay: boolean }) =>
  upload.type !== "AUDIO" ? "Publish to Gallery" : upload.canDisplay ? "Publish to Guest Book" : "Publish";

/**
 * The preview of one upload: a page without JavaScript, a dialog over the
 * list with it. One a helper set aside the family sees only in the Set aside
 * view, folded until they open it: its address goes there.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const upload = getAdminUpload(idParam(params.id) ?? 0);
  invariantResponse(upload, "Not found", { status: 404 });
  if (upload.setAside && admin.role === "family") throw redirect(setAsideAddress("upload", upload.id));
  return json({ upload: uploadFor(admin.role, upload) }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  return moderateUploadForm(request, "/admin/uploads");
}

export default function UploadPreview() {
  const { upload } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  const answer = useActionData<typeof action>();
  const confirm = answer && "confirm" in answer ? answer.confirm : null;
  const name = upload.originalName ?? "Unknown";
  const format = FORMATS[upload.mimeType ?? ""] ?? upload.mimeType ?? "Unknown";
  const size = dimensions(upload);
  const bytes = fileSize(upload);
  // A deleted upload's files are gone: only the record of who deleted it and when is left.
  // One a helper set aside keeps them, for the family (a helper sees it, and no buttons).
  const deleted = upload.status === "REJECTED" && !upload.setAside;
  const rejected = upload.status === "REJECTED";
  const helper = useAdminRole() === "helper";
  const voice = upload.type === "AUDIO";
  // A voice is named by who sent it (its file name is the recorder's), with its length.
  return (
    <AdminDialog title={voice ? upload.title : name} closeTo="/admin/uploads">
      {upload.setAside ? <p role="status">Set aside: no visitor sees it, and it is kept with its files for the family to decide.</p> : null}
      {deleted ? (
        <p>This upload was deleted permanently.</p>
      ) : upload.processingError ? (
        <ProcessingProblem reason={upload.processingError} />
      ) : upload.type === "IMAGE" ? (
        <img src={upload.url} alt={`Preview of ${name}`} className={d.preview} />
      ) : voice ? (
        <div className={d.voice}>
          {/* Until its copy is made, the original is offered below. */}
          <VoicePlayer upload={upload} offerOriginal={false} />
          <VoiceNotes upload={upload} />
        </div>
      ) : (
        <video src={upload.url} poster={upload.thumbnailUrl ?? undefined} controls preload="metadata" className={d.preview}>
          <a href={upload.originalUrl ?? upload.url}>
            Download {name} ({format})
          </a>
        </video>
      )}
      {/* A failure is said in place of the preview above. */}
      {rejected || upload.processing.state === "failed" ? null : upload.status === "APPROVED" ? (
        <p role="status">Published: it is {publishedPlace(upload)}.</p>
      ) : upload.status === "HIDDEN" ? (
        <p role="status">Unpublished: it is kept, but no visitor sees it.</p>
      ) : (
        <>
          <ProcessingStatus upload={upload} />
          <RefreshWhileProcessing uploads={[upload]} />
        </>
      )}
      <dl className={d.details}>
        <dt>Type</dt>
        <dd>{upload.type}</dd>
        <dt>Format</dt>
        <dd>{format}</dd>
        {size ? (
          <>
            <dt>Dimensions</dt>
            <dd>{size}</dd>
          </>
        ) : null}
        {upload.type !== "IMAGE" && upload.durationSec !== null ? (
          <>
            <dt>{voice ? "Length" : "Duration"}</dt>
            <dd>{formatDuration(upload.durationSec)}</dd>
          </>
        ) : null}
        {voice ? (
          <>
            <dt>A line about it</dt>
            <dd>{upload.caption ?? "None given"}</dd>
            <dt>Can be shown to visitors</dt>
            <dd>{upload.canDisplay ? "Yes" : "No: shared with the family only"}</dd>
          </>
        ) : null}
        {bytes ? (
          <>
            <dt>File size</dt>
            <dd>{bytes}</dd>
          </>
        ) : null}
        <dt>Submitted</dt>
        <dd>{formatDateTime(upload.createdAt, timeZone)}</dd>
        <dt>Sent by</dt>
        <dd>{upload.submittedBy || "Anonymous"}</dd>
        <ModerationRecord {...upload} timeZone={timeZone} />
        {upload.originalUrl ? (
          <>
            <dt>Original file</dt>
            <dd>
              <a href={upload.originalUrl} download={name}>
                Download the original ({format})
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      {upload.type === "IMAGE" && !upload.processingError && !rejected ? (
        <Form method="post" action={`/admin/uploads/${upload.id}`} className={d.buttons} preventScrollReset>
          <input type="hidden" name="id" value={upload.id} />
          <button type="submit" name="intent" value="rotate-left" className={ui.button.secondary}>
            Rotate Left
          </button>
          <button type="submit" name="intent" value="rotate-right" className={ui.button.secondary}>
            Rotate Right
          </button>
        </Form>
      ) : null}
      <div className={d.buttons} style={{ marginTop: "1rem" }}>
        {upload.status !== "PENDING" && !confirm ? (
          upload.status === "REJECTED" ? null : (
            <p>
              To unpublish it or publish it again, use the <Link to="/admin/published/uploads">Published tab</Link>.
            </p>
          )
        ) : confirm ? (
          <ConfirmStep confirm={confirm} action={`/admin/uploads/${upload.id}`} cancelTo={`/admin/uploads/${upload.id}`} />
        ) : (
          <ModerationButtons
            id={upload.id}
            action={`/admin/uploads/${upload.id}`}
            labels={{ approve: publishLabel(upload), reject: helper ? "Set Aside" : "Delete Permanently" }}
            canApprove={upload.processing.state === "ready"}
          />
        )}
      </div>
    </AdminDialog>
  );
}
