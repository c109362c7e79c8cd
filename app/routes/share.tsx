import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CheckboxField, Field, FormAlert, Honeypot } from "~/components/forms";
import * as formStyles from "~/components/forms.css";
import { ShareUploader } from "~/components/ShareUploader";
import { useSite } from "~/site/site-view";
import { uploadCompleteToast } from "~/uploads/upload.schema";
import { ACCEPTED_FILE_TYPES, MAX_FILES_PER_VISIT } from "~/media/limits";
import { translatorFromMatches, useT } from "~/components/useT";
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
  visitorLanguage,
  pageWords,
  translate,
} from "~/routes/share.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import * as s from "./share.css";

// A form page: never stored, so Back fetches it afresh.
export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  const language = await visitorLanguage(request);
  return json(
    // "E-mail me when the family has added my photos" is offered only when the site sends e-mail.
    {
      recent: await readRecentUploads(request),
      notifyOffered: mailEnabled(),
      // "Leave a voice memory" as HTML: the page loads no code for it, and its recorder on demand (docs/decisions/035).
      voiceForm: voiceFormHtml(request, "/share", null, { language }),
      words: pageWords(language, ["share"]),
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
  const language = await visitorLanguage(request);
  let outcome: ShareOutcome;
  try {
    outcome = await readMultipartForm(request, SHARE_FORM, sink).then(
      (form) => receiveShareForm(form, language),
      (error: unknown) => refusedShareForm(error, language),
    );
  } finally {
    sink.release();
  }
  const headers = new Headers(outcome.done ? undefined : outcome.headers);
  const uploaded = outcome.done ? outcome.uploaded : outcome.result.uploaded;
  if (uploaded.length > 0) headers.append("Set-Cookie", await rememberRecentUploads(request, uploaded));
  // All went well: POST/redirect/GET, with the confirmation carried by a cookie.
  if (outcome.done)
    return redirectWithToast("/share", uploadCompleteToast(uploaded.length, uploaded.length, translate(language)), { headers });
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
  const { t } = useT();
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
        <h1>{t("share.title")}</h1>
        <p className={ui.subtitle}>{t("share.subtitle")}</p>
      </div>

      {uploadedNow.length > 0 ? (
        <div className={s.confirmation} role="status">
          <h2>{t("share.thanks")}</h2>
          <p>
            {t("share.uploadedPending", { count: uploadedNow.length })} {t("share.notes.review")}
          </p>
        </div>
      ) : null}

      <Form method="post" encType="multipart/form-data" reloadDocument className={s.form} aria-describedby="share-notes">
        <FormAlert
          title={actionData?.title ?? t("share.uploadError")}
          messages={actionData?.errors.length ? actionData.errors : undefined}
        />
        <Field
          label={<RequiredLabel words={t("share.name")} />}
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
          label={<RequiredLabel words={t("share.email")} />}
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
            label={t("share.notify")}
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
                {t("share.files")}
              </label>
              <p className={formStyles.hint}>{t("share.chooseUpTo", { count: MAX_FILES_PER_VISIT })}</p>
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
              {sending ? t("share.uploading") : t("share.uploadFiles")}
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
          <h2 id="recent-title">{t("share.recent")}</h2>
          <ul>
            {recentNames.map((name, index) => (
              <li key={`${index}-${name}`}>{name}</li>
            ))}
          </ul>
        </section>
      ) : null}

      <div id="share-notes" className={s.notes}>
        <p>{t("share.notes.formats")}</p>
        <p>{t("share.notes.size")}</p>
        <p>{t("share.notes.review")}</p>
        <p>{useSite().privacyNote}</p>
      </div>

      <div className={s.voice} dangerouslySetInnerHTML={{ __html: voiceForm }} />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("share.title"), description: t("share.metaDescription"), path: "/share" });
};
