import { json } from "@remix-run/node";
import type { Actor } from "~/platform/actor.server";
import { requireFamily } from "~/admins/session.server";
import { refusedSiteMediaForm, type SiteMediaAnswer } from "~/site/site-media-files.server";
import { SITE_TAB_PATH, type SiteMediaFormResult } from "~/site/site-media.schema";
import { PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { readMultipartForm, type FileSink, type MultipartForm, type MultipartFormLimits } from "~/platform/multipart.server";
import { asRefusal } from "~/platform/refusal.server";
import type { ToastInput } from "~/utils/toast";
import { redirectWithToast } from "~/platform/toast.server";

// What the hero photo and Karen Mode song routes share: each has an upload
// form (multipart) and a reset form (intent=reset). Done: back to the form's
// section of the Site tab with a toast. Refused: the answer is the form again
// with the reason and what was typed (the route's page without JavaScript;
// beside the form with it).

export interface SiteMediaForms<Stored> {
  /** The id of the form's section in its tab. */
  section: string;
  /** The tab the form is in and comes back to (the Site tab unless given). */
  tab?: string;
  /** The upload form's limits, and where its file goes while the model checks it. */
  upload: MultipartFormLimits;
  sink: () => FileSink<Stored>;
  receive: (form: MultipartForm<Stored>, by: Actor) => Promise<SiteMediaAnswer>;
  reset: (by: Actor) => Promise<void>;
  toasts: { file: ToastInput; words: ToastInput; reset: ToastInput };
}

/** The upload form (multipart); the reset form is a small url-encoded one. */
const isMultipart = (request: Request) =>
  (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase() === "multipart/form-data";

const refusedForm = (status: number, message: string, headers?: Record<string, string>) =>
  json({ result: { formErrors: [message], fieldErrors: {}, values: {} } satisfies SiteMediaFormResult }, { status, headers });

/** A 400 in the form's shape unless the small form asks for `expected` (its intent); null when it does. */
async function unknownIntent(request: Request, expected: string) {
  const form = await readFormData(request);
  if (form.get("intent") === expected) return null;
  return refusedForm(400, "This form could not be understood. Please reload the page and try again.");
}

/** A reset that storage refused (a full disk), in the form's shape; anything else is a fault and is thrown. */
function refusedReset(error: unknown) {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  return refusedForm(refusal.status, refusal.message, refusal.headers);
}

/** The form on a page of its own: the answer to a refused form without JavaScript (it lives in the Site tab). */
export async function siteMediaPage(request: Request) {
  await requireFamily(request);
  return json(null, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function answerSiteMediaForm<Stored>(request: Request, forms: SiteMediaForms<Stored>) {
  const admin = await requireFamily(request);
  const back = `${forms.tab ?? SITE_TAB_PATH}#${forms.section}`;
  if (isMultipart(request)) {
    const answer = await readMultipartForm(request, forms.upload, forms.sink()).then(
      (form) => forms.receive(form, admin),
      (error: unknown) => refusedSiteMediaForm(error),
    );
    if (answer.ok) return redirectWithToast(back, answer.saved === "file" ? forms.toasts.file : forms.toasts.words);
    return json({ result: answer.result }, { status: answer.status, headers: answer.headers });
  }
  const intent = await unknownIntent(request, "reset");
  if (intent) return intent;
  try {
    await forms.reset(admin);
  } catch (error) {
    return refusedReset(error);
  }
  return redirectWithToast(back, forms.toasts.reset);
}
