import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { startAdminSession } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import { FormAlert } from "~/components/forms";
import { NewAdminFields } from "~/components/admin/form-fields";
import { useZodForm } from "~/components/useZodForm";
import { AcceptInvitationSchema, WELCOME_HELPER, WELCOME_INVITED } from "~/admins/admin.schema";
import type { Role } from "~/admins/roles";
import { acceptInvitation, lookUpInvitation, type InvitationState } from "~/admins/invitation.server";
import { getSiteSettings } from "~/site/settings.server";
import * as ui from "~/styles/ui.css";
import { loaderCacheControl, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { asRefusal } from "~/platform/refusal.server";
import { formatDateTime } from "~/utils/time";
import { redirectWithToast } from "~/platform/toast.server";

// /admin/invite/<token>: a family admin's invitation. Whoever has the link
// chooses a username and password, becomes an admin (family or helper, as
// the invitation says) and is logged in. No
// login is needed; the link works once, within 7 days
// (app/admins/invitation.server.ts). A used, expired or unknown link gets a
// kind sentence instead of the form.

const hideFields = ["password", "confirmPassword"];
const STATUS: Record<Exclude<InvitationState["state"], "open">, number> = { used: 410, expired: 410, unknown: 404, throttled: 429 };

/** The page for a link that no longer (or never did) open an invitation. */
function closed(found: Exclude<InvitationState, { state: "open" }>) {
  const headers: Record<string, string> = { "Cache-Control": PRIVATE_NO_STORE };
  if (found.state === "throttled") headers["Retry-After"] = String(found.retryAfterSeconds);
  return json({ open: false as const, message: found.message, result: undefined }, { status: STATUS[found.state], headers });
}

export const headers = loaderCacheControl;

export function loader({ params, context }: LoaderFunctionArgs) {
  const found = lookUpInvitation(params.token ?? "", context.clientIp);
  if (found.state !== "open") return closed(found);
  return json(
    {
      open: true as const,
      expiresAt: found.expiresAt.toISOString(),
      invitedBy: found.createdBy,
      role: found.role,
      // From the settings, not the page's site view: on a private memorial a visitor without the
      // passcode is shown a site view without it, and the invited person may not have the passcode yet.
      timeZone: getSiteSettings().timeZone,
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const found = lookUpInvitation(token, context.clientIp);
  if (found.state !== "open") return closed(found);
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: AcceptInvitationSchema });
  if (submission.status !== "success")
    return json({ open: true as const, message: undefined, result: submission.reply({ hideFields }) }, { status: 400 });
  try {
    const admin = await acceptInvitation(token, submission.value);
    const cookie = await startAdminSession(request, admin);
    return redirectWithToast("/admin", admin.role === "helper" ? WELCOME_HELPER : WELCOME_INVITED, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    if (refusal.status === 410) return json({ open: false as const, message: refusal.message, result: undefined }, { status: 410 });
    const reply = ["username", "password"].includes(refusal.field)
      ? submission.reply({ fieldErrors: { [refusal.field]: [refusal.message] }, hideFields })
      : submission.reply({ formErrors: [refusal.message], hideFields });
    return json({ open: true as const, message: undefined, result: reply }, { status: refusal.status, headers: refusal.headers });
  }
}

export default function Invitation() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const closedMessage = answer && !answer.open ? answer.message : !page.open ? page.message : null;
  return (
    <div className={s.loginWrap}>
      <div className={s.loginCard}>
        <h1 className={s.loginTitle}>{page.open && page.role === "helper" ? "Become a helper" : "Become a family admin"}</h1>
        {closedMessage ? (
          <>
            <p role="status">{closedMessage}</p>
            <p>
              <Link to="/" className={ui.button.secondary}>
                Go to the memorial
              </Link>
            </p>
          </>
        ) : (
          <InvitationForm
            expiresAt={page.open ? page.expiresAt : ""}
            timeZone={page.open ? page.timeZone : "UTC"}
            invitedBy={page.open ? page.invitedBy : null}
            role={page.open ? page.role : "family"}
            lastResult={answer?.open ? answer.result : undefined}
          />
        )}
      </div>
    </div>
  );
}

function InvitationForm({
  expiresAt,
  timeZone,
  invitedBy,
  role,
  lastResult,
}: {
  expiresAt: string;
  timeZone: string;
  invitedBy: string | null;
  role: Role;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const { form, control } = useZodForm("invitation", AcceptInvitationSchema, { lastResult });
  return (
    <Form method="post" {...getFormProps(form)}>
      <p>
        {invitedBy ? `${invitedBy} has invited you` : "You have been invited"}
        {role === "helper"
          ? " to help the family as a helper: to read first what visitors share, approve or reject memories, photos and videos, and correct what is published."
          : " to help look after this memorial: to approve what visitors share and keep the site up to date."}{" "}
        Choose a username and password to log in with.
      </p>
      {expiresAt ? <p className={ui.muted}>This link works once, until {formatDateTime(expiresAt, timeZone)}.</p> : null}
      <FormAlert title="Not yet an admin" messages={form.errors} />
      <NewAdminFields control={control} />
      <button type="submit" className={ui.button.primary} disabled={pending}>
        {pending ? "Creating..." : role === "helper" ? "Become a Helper" : "Become an Admin"}
      </button>
    </Form>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  ...pageMeta(matches, { title: "Invitation", description: "An invitation to help look after the memorial." }),
  // The link is personal: never in a search engine.
  { name: "robots", content: "noindex, nofollow" },
];
