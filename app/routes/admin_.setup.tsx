import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { startAdminSession } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import { Field, FormAlert } from "~/components/forms";
import { NewAdminFields } from "~/components/admin/form-fields";
import { useZodForm } from "~/components/useZodForm";
import { SetupSchema, WELCOME_FIRST_ADMIN } from "~/admins/admin.schema";
import { isSetupOpen, setUpFirstAdmin } from "~/admins/first-run.server";
import * as ui from "~/styles/ui.css";
import { loaderCacheControl, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { asRefusal } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";

// /admin/setup: "Set up the memorial", the first run's page. While the
// memorial has no admin, /admin and /admin/login lead here; it creates the
// first admin, logs them in and opens the Site tab. It asks for the setup
// code the server printed in its log (app/admins/first-run.server.ts). Once
// any admin exists it is gone: every request goes to the login page.

const NOT_SET_UP = "Not set up";
const hideFields = ["password", "confirmPassword"];

export const headers = loaderCacheControl;

export function loader() {
  if (!isSetupOpen()) throw redirect("/admin/login");
  return json(null, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!isSetupOpen()) throw redirect("/admin/login");
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: SetupSchema });
  if (submission.status !== "success") return json({ result: submission.reply({ hideFields }) }, { status: 400 });
  try {
    const admin = await setUpFirstAdmin(submission.value, context.clientIp);
    const cookie = await startAdminSession(request, admin);
    return redirectWithToast("/admin/site", WELCOME_FIRST_ADMIN, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    const fields = ["setupCode", "username", "password"];
    const reply = fields.includes(refusal.field)
      ? submission.reply({ fieldErrors: { [refusal.field]: [refusal.message] }, hideFields })
      : submission.reply({ formErrors: [refusal.message], hideFields });
    return json({ result: reply }, { status: refusal.status, headers: refusal.headers });
  }
}

export default function SetUpTheMemorial() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/admin/setup") === true;
  const { form, control } = useZodForm("setup", SetupSchema, { lastResult: actionData?.result });
  const code = control("setupCode", "text");
  return (
    <div className={s.loginWrap}>
      <Form method="post" action="/admin/setup" {...getFormProps(form)} className={s.loginCard}>
        <h1 className={s.loginTitle}>Set up the memorial</h1>
        <p>
          Welcome. This memorial has no admin yet: create the first one here. You can add other family admins afterwards, from the Site tab.
        </p>
        <FormAlert title={NOT_SET_UP} messages={form.errors} />
        <Field
          label="Setup code"
          hint="Printed in the server's log when it started, on the line that begins “Setup code:”. It proves you are the one who runs this site."
          errors={code.errors}
          errorId={code.errorId}
          inputProps={{ ...code.props, autoComplete: "off", autoCapitalize: "characters", spellCheck: false }}
        />
        <NewAdminFields control={control} />
        <button type="submit" className={ui.button.primary} disabled={pending}>
          {pending ? "Setting up..." : "Create the First Admin"}
        </button>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Set up the memorial", description: "Create the memorial's first admin.", path: "/admin/setup" });
