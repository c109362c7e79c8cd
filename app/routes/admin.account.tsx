import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { ROLE_HINTS, ROLE_LABELS } from "~/admins/roles";
import { ChangePasswordForm } from "~/components/admin/ChangePasswordForm";
import type { FamilyAdminsAnswer } from "~/components/admin/FamilyAdmins";
import * as s from "~/components/admin/admin.css";
import { invariantResponse, loaderCacheControl, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { changePasswordForm } from "~/routes/password-change.server";

// /admin/account: who you are logged in as, what your role lets you do, and
// your own password. Every admin may open it; it is a helper's tab (the
// family also change their password in the Site tab's Family admins section).

const ACCOUNT = "/admin/account";

export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return json({ username: admin.username, role: admin.role }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  invariantResponse(form.get("intent") === "change-password", "This form does not know what to do. Please go back and try again.", {
    status: 400,
  });
  return changePasswordForm(admin, form, ACCOUNT, context.clientIp);
}

export default function AccountTab() {
  const { username, role } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as FamilyAdminsAnswer | undefined;
  return (
    <>
      <section aria-labelledby="account-title">
        <h2 id="account-title" className={s.sectionTitle}>
          Your account
        </h2>
        <p>
          You are logged in as <strong>{username}</strong>, as <strong>{ROLE_LABELS[role].toLowerCase()}</strong>. {ROLE_HINTS[role]}
        </p>
      </section>
      <ChangePasswordForm
        action={ACCOUNT}
        username={username}
        lastResult={answer && "form" in answer ? answer.result : undefined}
        returnTo={ACCOUNT}
      />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Your account", description: "Your role and your password.", path: ACCOUNT });
