import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { loginAdmin } from "~/admins/authenticator.server";
import { LOGIN_FAILED, LOGIN_SUCCESS, LoginSchema } from "~/admins/login.schema";
import { startAdminSession } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import { FormAlert } from "~/components/forms";
import { ControlField, UsernameField } from "~/components/admin/form-fields";
import { showToast } from "~/components/Toaster";
import { useZodForm } from "~/components/useZodForm";
import { isSetupOpen } from "~/admins/first-run.server";
import * as ui from "~/styles/ui.css";
import { loaderCacheControl, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { asRefusal } from "~/platform/refusal.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { isTextBrowser } from "~/utils/text-browser";
import { redirectWithToast } from "~/platform/toast.server";

// /admin/login: the login card, outside the panel's layout. Every admin page
// sends a visitor without a session here (requireAdmin), with the page's
// address in `redirectTo` to return to.

/** Only places inside the admin panel are followed after logging in (never back to this page). */
function afterLogin(to: unknown) {
  const target = safeRedirect(to, "/admin");
  return /^\/admin(?:[/?#]|$)/.test(target) && !/^\/admin\/login(?:[/?#]|$)/.test(target) ? target : "/admin";
}

export const headers = loaderCacheControl;

// The card is shown with a session too: after a refused login the page's loader runs again, and
// sending an administrator on from here would turn the form's answer (its messages) into a redirect.
// While the memorial has no admin at all, there is nobody to log in: the first run's setup instead.
export function loader() {
  if (isSetupOpen()) throw redirect("/admin/setup");
  return json(null, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  // A form's limits (its size and type), on a copy: remix-auth's form strategy reads the body itself.
  const form = await readFormData(request.clone());
  const result = await loginAdmin("form", request, context.clientIp);
  if (!result.ok) {
    const submission = parseWithZod(form, { schema: LoginSchema });
    const reply = submission.reply(result.status === 400 ? undefined : { formErrors: result.errors.form, hideFields: ["password"] });
    // As on the passcode page: lynx would ask whether to show a 401 page at all, so a wrong password is a 403 there.
    const status = result.status === 401 && isTextBrowser(request.headers.get("User-Agent")) ? 403 : result.status;
    return json(
      { result: reply, failed: result.status !== 400 },
      { status, headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined },
    );
  }
  let cookie: string;
  try {
    cookie = await startAdminSession(request, result.admin);
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    const reply = parseWithZod(form, { schema: LoginSchema }).reply({ formErrors: [refusal.message], hideFields: ["password"] });
    return json({ result: reply, failed: true }, { status: refusal.status });
  }
  return redirectWithToast(afterLogin(form.get("redirectTo")), LOGIN_SUCCESS, { headers: { "Set-Cookie": cookie } });
}

export default function AdminLogin() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/admin/login") === true;
  const { form, control } = useZodForm("admin-login", LoginSchema, { lastResult: actionData?.result });
  const [username, password] = [control("username", "text"), control("password", "password")];
  useEffect(() => {
    if (actionData?.failed) showToast({ ...LOGIN_FAILED, type: "destructive" });
  }, [actionData]);
  // The spec's local flag, kept for fidelity only: the server session decides everything.
  useEffect(() => {
    try {
      window.localStorage.removeItem("adminSession");
    } catch {
      // Storage may be unavailable (private browsing); nothing depends on it.
    }
  }, []);
  return (
    <div className={s.loginWrap}>
      <Form method="post" action="/admin/login" {...getFormProps(form)} className={s.loginCard}>
        <h1 className={s.loginTitle}>Admin Login</h1>
        <FormAlert title={LOGIN_FAILED.title} messages={form.errors} />
        <input type="hidden" name="redirectTo" value={afterLogin(searchParams.get("redirectTo"))} />
        <UsernameField control={username} autoComplete="username" />
        <ControlField label="Password" control={password} autoComplete="current-password" />
        <button type="submit" className={ui.button.primary} disabled={pending}>
          {pending ? "Logging in..." : "Login"}
        </button>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Admin", description: "The family's moderation panel.", path: "/admin" });
