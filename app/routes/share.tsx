import {
  json,
  unstable_parseMultipartFormData,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import uppyCoreStyles from "@uppy/core/css/style.min.css";
import uppyDashboardStyles from "@uppy/dashboard/css/style.min.css";
import { useEffect, useState } from "react";
import { Field, FormAlert, Honeypot } from "~/components/forms";
import * as formStyles from "~/components/forms.css";
import { ShareUploader } from "~/components/ShareUploader";
import { content } from "~/content";
import {
  ACCEPTED_FILE_TYPES,
  MAX_FILES_PER_VISIT,
  MAX_SIZE_NOTE,
  MAX_UPLOAD_BYTES,
  REVIEW_NOTE,
  SUPPORTED_FORMATS_NOTE,
} from "~/media/limits";
import { beginFormUpload, discardFormUpload, registerFormUpload, storeFormUpload } from "~/models/upload.server";
import { FORM_TOO_LARGE, MAX_FORM_BODY_BYTES } from "~/models/upload-intake.server";
import type { UploadIntake } from "~/models/upload-budget.server";
import { MISSING_INFORMATION, submitterLabel } from "~/models/upload.schema";
import * as ui from "~/styles/ui.css";
import { loaderCacheControl, PRIVATE_NO_STORE } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import { limitMultipartRequest, type MultipartLimits } from "~/utils/multipart-limits.server";
import { asRefusal, Refusal } from "~/utils/refusal.server";
import { readRecentUploads, rememberRecentUploads } from "~/utils/recent-uploads.server";
import { redirectWithToast } from "~/utils/toast.server";
import * as s from "./share.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: uppyCoreStyles },
  { rel: "stylesheet", href: uppyDashboardStyles },
];

// A form page: never stored, so Back fetches it afresh.
export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ recent: await readRecentUploads(request) }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

const UPLOAD_COMPLETE = {
  title: "Upload Complete",
  description: "Your file has been uploaded successfully and is pending review.",
};
const TEXT_FIELDS = new Set(["name", "email", "website"]);
const MAX_TEXT_BYTES = 2048;
const TEXT_TOO_LONG = "The name or email is longer than this form accepts. Please shorten it and try again.";

interface ShareResult {
  errors: string[];
  fieldErrors: { name?: string[]; email?: string[] };
  uploaded: string[];
  /** What was typed, given back so a refused form keeps it (there is no JavaScript to keep it). */
  values?: { name: string; email: string };
  /** The alert's title when it is not "Upload Error" (the spec's "Missing Information"). */
  title?: string;
}

const FORM_UNREADABLE = "Part of the form could not be read. Please go back, reload the page and try again.";
const TOO_MANY_FILES = `You can share at most ${MAX_FILES_PER_VISIT} files at a time. Please choose fewer files.`;
/** What one form may hold before it is read any further (the parser keeps none of these limits itself). */
const FORM_LIMITS: MultipartLimits = {
  maxHeaderBytes: 8 * 1024,
  // Ten files, three fields, and room for a visitor who picked a few files too many (told so below).
  maxParts: 64,
  maxBodyBytes: MAX_FORM_BODY_BYTES,
  messages: { header: FORM_UNREADABLE, parts: TOO_MANY_FILES, body: FORM_TOO_LARGE },
};

const refusedResult = (refusal: Refusal) =>
  shareResult(refusal.status, { errors: [refusal.message], fieldErrors: {}, uploaded: [] }, new Headers(refusal.headers));

/**
 * The share page without JavaScript (and on browsers too old for the upload
 * dialog): a plain multipart form. The bytes it declares are reserved against
 * the storage budget before it is read; each file is streamed to storage as
 * it arrives and then goes through the same checks as a direct upload.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data") {
    return shareResult(415, { errors: ["Please use the form on the share page to upload files."], fieldErrors: {}, uploaded: [] });
  }
  let intake: UploadIntake;
  let guarded: Request;
  try {
    intake = await beginFormUpload(request.headers.get("Content-Length"), context.clientIp);
    guarded = limitMultipartRequest(request, FORM_LIMITS);
  } catch (error) {
    const refusal = asRefusal(error);
    if (refusal) return refusedResult(refusal);
    throw error;
  }
  try {
    return await receiveShareForm(guarded, intake, context.clientIp);
  } finally {
    intake.release();
  }
}

async function receiveShareForm(request: Request, intake: UploadIntake, clientIp: string | undefined) {
  const stored: { key: string; name: string }[] = [];
  const refused: string[] = [];
  let fileCount = 0;

  const drain = async (data: AsyncIterable<Uint8Array>) => {
    for await (const chunk of data) void chunk;
  };

  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(request, async ({ name, filename, contentType, data }) => {
      if (filename === undefined) {
        if (!TEXT_FIELDS.has(name)) return drain(data).then(() => undefined);
        const chunks: Uint8Array[] = [];
        let size = 0;
        for await (const chunk of data) {
          size += chunk.byteLength;
          if (size > MAX_TEXT_BYTES) throw new Refusal(413, name, TEXT_TOO_LONG);
          chunks.push(chunk);
        }
        return Buffer.concat(chunks).toString("utf8");
      }
      if (name !== "files" || filename === "") return drain(data).then(() => undefined);
      fileCount += 1;
      if (fileCount > MAX_FILES_PER_VISIT) return drain(data).then(() => undefined);
      // Keep reading past the limit without storing, so the browser gets our answer
      // instead of a reset connection.
      let size = 0;
      let tooLarge = false;
      async function* capped() {
        for await (const chunk of data) {
          size += chunk.byteLength;
          if (size > MAX_UPLOAD_BYTES) {
            tooLarge = true;
            continue;
          }
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        }
      }
      const key = await storeFormUpload({ stream: capped(), filename, contentType }, clientIp, intake);
      if (tooLarge) {
        await discardFormUpload(key);
        refused.push(`“${filename}” is larger than 1 GB, so it was not uploaded. Please choose a smaller file.`);
      } else {
        stored.push({ key, name: filename });
      }
      return undefined;
    });
  } catch (error) {
    await Promise.all(stored.map(({ key }) => discardFormUpload(key)));
    const refusal = asRefusal(error);
    if (refusal) return refusedResult(refusal);
    return shareResult(400, {
      errors: ["The upload was interrupted before it finished. Please try again."],
      fieldErrors: {},
      uploaded: [],
    });
  }

  const name = String(form.get("name") ?? "").trim();
  const email = String(form.get("email") ?? "").trim();
  const values = { name, email };
  const problems: ShareResult = { errors: [], fieldErrors: {}, uploaded: [], values };
  if (!name) problems.fieldErrors.name = ["Name is required"];
  if (!email) problems.fieldErrors.email = ["Email is required"];
  if (!name || !email) {
    problems.title = MISSING_INFORMATION.title;
    problems.errors.push(MISSING_INFORMATION.description);
  }
  if (fileCount > MAX_FILES_PER_VISIT) problems.errors.push(TOO_MANY_FILES);
  if (fileCount === 0) problems.errors.push("Please choose at least one photo or video to share.");
  if (problems.errors.length > 0) {
    await Promise.all(stored.map(({ key }) => discardFormUpload(key)));
    return shareResult(fileCount > MAX_FILES_PER_VISIT ? 413 : 400, problems);
  }
  // A bot filled in the hidden field: thank it and keep nothing.
  if (form.get("website")) {
    await Promise.all(stored.map(({ key }) => discardFormUpload(key)));
    return shareResult(200, { errors: [], fieldErrors: {}, uploaded: stored.map((file) => file.name) });
  }

  const uploaded: string[] = [];
  for (const file of stored) {
    try {
      await registerFormUpload(file.key, { submittedBy: submitterLabel(name, email), originalName: file.name });
      uploaded.push(file.name);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refused.push(
        error.status === 415
          ? `“${file.name}” is not a photo or video we can accept. ${SUPPORTED_FORMATS_NOTE}.`
          : `“${file.name}”: ${error.message}`,
      );
    }
  }
  const headers = new Headers();
  if (uploaded.length > 0) headers.append("Set-Cookie", await rememberRecentUploads(request, uploaded));
  // All went well: POST/redirect/GET, with the confirmation carried by a cookie.
  if (refused.length === 0) return redirectWithToast("/share", UPLOAD_COMPLETE, { headers });
  const status = uploaded.length > 0 ? 200 : refused.some((sentence) => sentence.includes("1 GB")) ? 413 : 415;
  return shareResult(status, { errors: refused, fieldErrors: {}, uploaded, values }, headers);
}

const invalid = (errors: string[] | undefined, errorId: string) =>
  errors?.length ? { "aria-invalid": true, "aria-describedby": errorId } : {};

function shareResult(status: number, result: ShareResult, headers?: Headers) {
  return json(result, { status, headers });
}

export default function SharePage() {
  const { recent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ShareResult | undefined;
  const navigation = useNavigation();
  const [dialogReady, setDialogReady] = useState(false);
  const [recentNames, setRecentNames] = useState<string[]>(recent);
  useEffect(() => setRecentNames(recent), [recent]);
  const sending = navigation.state === "submitting";
  const uploadedNow = actionData?.uploaded ?? [];

  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Share Photos &amp; Videos</h1>
        <p className={ui.subtitle}>Add your photos and videos of happy times to the memorial gallery.</p>
      </div>

      {uploadedNow.length > 0 ? (
        <div className={s.confirmation} role="status">
          <h2>Thank you</h2>
          <p>
            {uploadedNow.length === 1 ? "Your file has" : `Your ${uploadedNow.length} files have`} been uploaded and{" "}
            {uploadedNow.length === 1 ? "is" : "are"} pending review. {REVIEW_NOTE}
          </p>
        </div>
      ) : null}

      <Form method="post" encType="multipart/form-data" reloadDocument className={s.form} aria-describedby="share-notes">
        <FormAlert title={actionData?.title ?? "Upload Error"} messages={actionData?.errors.length ? actionData.errors : undefined} />
        <Field
          label="Name*"
          errors={actionData?.fieldErrors.name}
          errorId="share-name-error"
          inputProps={{ id: "share-name", name: "name", type: "text", required: true, maxLength: 100, autoComplete: "name", defaultValue: actionData?.values?.name, ...invalid(actionData?.fieldErrors.name, "share-name-error") }}
        />
        <Field
          label="Email*"
          errors={actionData?.fieldErrors.email}
          errorId="share-email-error"
          inputProps={{ id: "share-email", name: "email", type: "email", required: true, maxLength: 254, autoComplete: "email", defaultValue: actionData?.values?.email, ...invalid(actionData?.fieldErrors.email, "share-email-error") }}
        />
        <Honeypot />
        {dialogReady ? null : (
          <>
            <div className={formStyles.field}>
              <label htmlFor="share-files" className={formStyles.label}>
                Photos and videos
              </label>
              <p className={formStyles.hint}>Choose up to {MAX_FILES_PER_VISIT} files.</p>
              <input id="share-files" name="files" type="file" multiple required accept={ACCEPTED_FILE_TYPES.join(",")} className={s.fileInput} />
            </div>
            <button type="submit" className={ui.button.primary} disabled={sending}>
              {sending ? "Uploading..." : "Upload Files"}
            </button>
          </>
        )}
        <ShareUploader
          nameInputId="share-name"
          emailInputId="share-email"
          onReady={() => setDialogReady(true)}
          onUploaded={(name) => setRecentNames((names) => [name, ...names].slice(0, 10))}
        />
      </Form>

      {recentNames.length > 0 ? (
        <section className={s.recent} aria-labelledby="recent-title">
          <h2 id="recent-title">Recently uploaded</h2>
          <ul>
            {recentNames.map((name, index) => (
              <li key={`${index}-${name}`}>{name}</li>
            ))}
          </ul>
        </section>
      ) : null}

      <div id="share-notes" className={s.notes}>
        <p>{SUPPORTED_FORMATS_NOTE}</p>
        <p>{MAX_SIZE_NOTE}</p>
        <p>{REVIEW_NOTE}</p>
        <p>{content.privacyNote}</p>
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, {
    title: "Share Photos & Videos",
    description: "Share your photos and videos of happy times for the memorial gallery.",
    path: "/share",
  });
