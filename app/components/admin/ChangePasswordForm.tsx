import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { ControlField } from "~/components/admin/form-fields";
import { useZodForm } from "~/components/useZodForm";
import { PasswordChangeFormSchema } from "~/admins/admin.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";
import { useSendingIntent, useToastId } from "./form-state";

interface ChangePasswordProps {
  /** Where it posts: the Family admins section's action, or the account page's own. */
  action: string;
  username: string;
  lastResult?: SubmissionResult<string[]>;
  returnTo: string;
}

/** Your own password, for every admin: family in the Family admins section, a helper on her account page. */
export function ChangePasswordForm(props: ChangePasswordProps) {
  return <ChangePasswordFields key={useToastId()} {...props} />;
}

function ChangePasswordFields({ action, username, lastResult, returnTo }: ChangePasswordProps) {
  const sending = useSendingIntent(action) === "change-password";
  const { form, control } = useZodForm("change-password", PasswordChangeFormSchema, { lastResult });
  const [current, next, again] = [
    control("currentPassword", "password"),
    control("newPassword", "password"),
    control("confirmPassword", "password"),
  ];
  return (
    <Form
      method="post"
      action={action}
      {...getFormProps(form)}
      aria-labelledby="change-password-title"
      className={s.form}
      preventScrollReset
    >
      <h3 id="change-password-title" className={s.sectionTitle}>
        Change your password
      </h3>
      <FormAlert title="Password not changed" messages={form.errors} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {/* For password managers: whose password this is. */}
      <input type="hidden" name="username" value={username} autoComplete="username" />
      <ControlField label="Current password" control={current} autoComplete="current-password" />
      <ControlField
        label="New password"
        hint="At least 8 characters. You stay logged in here; anywhere else you are logged in is logged out."
        control={next}
        autoComplete="new-password"
      />
      <ControlField label="New password again" control={again} autoComplete="new-password" />
      <button type="submit" name="intent" value="change-password" className={ui.button.primary} disabled={sending}>
        {sending ? "Changing..." : "Change Password"}
      </button>
    </Form>
  );
}
