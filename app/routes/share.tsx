import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CheckboxField, Field, FormAlert, Honeypot } from "~/components/forms";
import * as formStyles from "~/components/forms.css";
import { ShareUploader } from "~/components/ShareUploader";
import { useSite } from "~/site/site-view";
import { uploadCompleteToast } from "~/uploads/upload.schema";
import { ACCEPTED_FILE_TYPES, MAX_FILES_PER_VISIT, MAX_SIZE_NOTE, REVIEW_NOTE, SUPPORTED_FORMATS_NOTE } from "~/media/limits";
import {
  json,
  mailEnabled,
  readMultipartForm,
  receiveShareForm,
  refusedShareForm,
  SHARE_FORM,
  shareFormSink,
  type ShareOutcome,
  type ShareResult,
  loaderCacheControl,
  PRIVATE_NO_STORE,
  readRecentUploads,
  rememberRecentUploads,
  redirectWithToast,
  voiceFormHtml,
} from "~/routes/share.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import * as s from "./share.css";

// A form page: never stored, so Back fetches it afresh.
export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  return json(
    // "E-mail me when the family has added my photos" is offered only when the site sends e-mail.
    {
      recent: await readRecentUploads(request),
      notifyOffered: mailEnabled(),
      // "Leave a voice memory" as HTML: the page loads no code for it, and its recorder on demand (docs/decisions/035).
      voiceForm: voiceFormHtml(request, "/share"),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

/**
 * The plain form (without JavaScript, and on browsers too old for the upload
 * dialog): read here, its files streamed to storage as they arrive, then
 * given to the model; every file accepted confirms with a redirect, anything
 * refused shows on the page with what was typed.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const sink = shareFormSink(context.clientIp);
  let outcome: ShareOutcome;
  try {
    outcome = await readMultipartForm(request, SHARE_FORM, sink).then(receiveShareForm, refusedShareForm);
  } finally {
    sink.release();
  }
  const headers = new Headers(outcome.done ? undefined : outcome.headers);
  const uploaded = outcome.done ? outcome.uploaded : outcome.result.uploaded;
  if (uploaded.length > 0) headers.append("Set-Cookie", await rememberRecentUploads(request, uploaded));
  // All went well: POST/redirect/GET, with the confirmation carried by a cookie.
  if (outcome.done) return redirectWithToast("/share", uploadCompleteToast(uploaded.length), { headers });
  return json(outcome.result, { status: outcome.status, headers });
}

/**
 * "Name*" and "Email*", the spec's words for these inputs, as text (what
 * screen readers and text browsers read); drawn as "Name *", like every
 * other form on the site, by a space's width of margin before the star.
 */
function RequiredLabel({ words }: { words: string }) {
  return (
    <>
      {words}
      <span className={s.requiredMark}>*</span>
    </>
  );
}

const invalid = (errors: string[] | undefined, errorId: string) =>
  errors?.length ? { "aria-invalid": true, "aria-describedby": errorId } : {};

export default function SharePage() {
  const { recent, notifyOffered, voiceForm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ShareResult | undefined;
  const navigation = useNavigation();
  const [dialogReady, setDialogReady] = useState(false);
  const [recentNames, setRecentNames] = useState<string[]>(recent);
  useEffect(() => setRecentNames(recent), [recent]);
  useEffect(() => {
    void import("~/components/VoiceRecorder").then((recorder) => recorder.default());
  }, []);
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
          label={<RequiredLabel words="Name" />}
          errors={actionData?.fieldErrors.name}
          errorId="share-name-error"
          inputProps={{
            id: "share-name",
            name: "name",
            type: "text",
            required: true,
            maxLength: 100,
            autoComplete: "name",
            defaultValue: actionData?.values?.name,
            ...invalid(actionData?.fieldErrors.name, "share-name-error"),
          }}
        />
        <Field
          label={<RequiredLabel words="Email" />}
          errors={actionData?.fieldErrors.email}
          errorId="share-email-error"
          inputProps={{
            id: "share-email",
            name: "email",
            type: "email",
            required: true,
            maxLength: 254,
            autoComplete: "email",
            defaultValue: actionData?.values?.email,
            ...invalid(actionData?.fieldErrors.email, "share-email-error"),
          }}
        />
        {notifyOffered ? (
          <CheckboxField
            label="E-mail me when the family has added my photos and videos"
            errors={undefined}
            errorId="share-notify-error"
            inputProps={{ id: "share-notify", name: "notify", type: "checkbox", defaultChecked: actionData?.values?.notify ?? false }}
          />
        ) : null}
        <Honeypot />
        {dialogReady ? null : (
          <>
            <div className={formStyles.field}>
              <label htmlFor="share-files" className={formStyles.label}>
                Photos and videos
              </label>
              <p className={formStyles.hint}>Choose up to {MAX_FILES_PER_VISIT} files.</p>
              <input
                id="share-files"
                name="files"
                type="file"
                multiple
                required
                accept={ACCEPTED_FILE_TYPES.join(",")}
                className={s.fileInput}
              />
            </div>
            <button type="submit" className={ui.button.primary} disabled={sending}>
              {sending ? "Uploading..." : "Upload Files"}
            </button>
          </>
        )}
        <ShareUploader
          nameInputId="share-name"
          emailInputId="share-email"
          notifyInputId="share-notify"
          onReady={() => setDialogReady(true)}
          onUnavailable={() => setDialogReady(false)}
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
        <p>{useSite().privacyNote}</p>
      </div>

      <div className={s.voice} dangerouslySetInnerHTML={{ __html: voiceForm }} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, {
    title: "Share Photos & Videos",
    description: "Share your photos and videos of happy times for the memorial gallery.",
    path: "/share",
  });
