import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, Outlet, useActionData, useLoaderData, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { Field, FormAlert } from "~/components/forms";
import { showToast } from "~/components/Toaster";
import { useZodForm } from "~/components/useZodForm";
import { loginAdmin } from "~/auth/authenticator.server";
import { LOGGED_OUT, LOGIN_FAILED, LOGIN_SUCCESS, LoginSchema } from "~/auth/login.schema";
import { endAdminSession, getAdmin, startAdminSession } from "~/auth/session.server";
import { countPendingMemories } from "~/models/memory.server";
import { getRsvpStats } from "~/models/rsvp.server";
import { countPendingUploads } from "~/models/upload.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/utils/meta";
import { loaderCacheControl, readFormData } from "~/utils/http.server";
import { asRefusal } from "~/utils/refusal.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { redirectWithToast } from "~/utils/toast.server";
import * as s from "~/components/admin/admin.css";

/** Only places inside the admin panel are followed after logging in. */
function afterLogin(to: unknown) {
  const target = safeRedirect(to, "/admin");
  return /^\/admin(?:[/?#]|$)/.test(target) ? target : "/admin";
}

export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await getAdmin(request);
  const headers = { "Cache-Control": "private, no-store" };
  if (!admin) return json({ admin: null, counts: null }, { headers });
  return json(
    {
      admin: { username: admin.username },
      counts: { memories: countPendingMemories(), uploads: countPendingUploads(), attendance: getRsvpStats().totalRsvps },
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  if (form.get("intent") === "logout") {
    return redirectWithToast("/admin", LOGGED_OUT, { headers: { "Set-Cookie": await endAdminSession(request) } });
  }
  const result = await loginAdmin({ username: form.get("username"), password: form.get("password") }, context.clientIp);
  if (!result.ok) {
    const submission = parseWithZod(form, { schema: LoginSchema });
    const reply = submission.reply(result.status === 400 ? undefined : { formErrors: result.errors.form, hideFields: ["password"] });
    return json(
      { result: reply, failed: result.status !== 400 },
      { status: result.status, headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined },
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

function LoginCard() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "login";
  const { form, control } = useZodForm("admin-login", LoginSchema, { lastResult: actionData?.result });
  const [username, password] = [control("username", "text"), control("password", "password")];
  useEffect(() => {
    if (actionData?.failed) showToast({ ...LOGIN_FAILED, type: "destructive" });
  }, [actionData]);
  return (
    <div className={s.loginWrap}>
      <Form method="post" action="/admin" {...getFormProps(form)} className={s.loginCard}>
        <h1 className={s.loginTitle}>Admin Login</h1>
        <FormAlert title={LOGIN_FAILED.title} messages={form.errors} />
        <input type="hidden" name="intent" value="login" />
        <input type="hidden" name="redirectTo" value={afterLogin(searchParams.get("redirectTo"))} />
        <Field label="Username" errors={username.errors} errorId={username.errorId} inputProps={{ ...username.props, autoComplete: "username" }} />
        <Field label="Password" errors={password.errors} errorId={password.errorId} inputProps={{ ...password.props, autoComplete: "current-password" }} />
        <button type="submit" className={ui.button.primary} disabled={pending}>
          {pending ? "Logging in..." : "Login"}
        </button>
      </Form>
    </div>
  );
}

/** A tab is a link to a nested route, so it works without JavaScript and can be bookmarked. */
function Tab({ to, active, children }: { to: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link to={to} className={active ? `${s.tab} ${s.activeTab}` : s.tab} aria-current={active ? "page" : undefined}>
      {children}
    </Link>
  );
}

export default function AdminLayout() {
  const { admin, counts } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const section = pathname.split("/")[2] ?? "";
  // The spec's local flag, kept for fidelity only: the server session decides everything.
  useEffect(() => {
    try {
      if (admin) window.localStorage.setItem("adminSession", "true");
      else window.localStorage.removeItem("adminSession");
    } catch {
      // Storage may be unavailable (private browsing); nothing depends on it.
    }
  }, [admin]);

  if (!admin || !counts) return <LoginCard />;
  const loggingOut = navigation.state === "submitting" && navigation.formData?.get("intent") === "logout";
  return (
    <div className={ui.container}>
      <div className={s.header}>
        <div>
          <h1 className={s.title}>Admin Panel</h1>
          <p className={ui.subtitle}>Manage memories and uploads</p>
        </div>
        <Form method="post" action="/admin">
          <input type="hidden" name="intent" value="logout" />
          <button type="submit" className={ui.button.secondary} disabled={loggingOut}>
            Logout
          </button>
        </Form>
      </div>
      <nav aria-label="Admin sections" className={s.tabs}>
        <Tab to="/admin" active={section === "" || section === "memories"}>
          Pending Memories ({counts.memories})
        </Tab>
        <Tab to="/admin/uploads" active={section === "uploads"}>
          Pending Uploads ({counts.uploads})
        </Tab>
        <Tab to="/admin/attendance" active={section === "attendance"}>
          Attendance ({counts.attendance})
        </Tab>
        <Tab to="/admin/poems" active={section === "poems"}>
          Poems
        </Tab>
        <Tab to="/admin/exports" active={section === "exports"}>
          Exports
        </Tab>
      </nav>
      <div className={s.panel}>
        <Outlet />
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Admin", description: "The family's moderation panel.", path: "/admin" });
