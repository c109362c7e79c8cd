import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { PASSWORD_CHANGED, PasswordChangeFormSchema } from "~/admins/admin.schema";
import { changeAdminPassword } from "~/admins/admin.server";
import type { FamilyAdminsAnswer } from "~/components/admin/FamilyAdmins";
import type { AdminActor } from "~/platform/actor.server";
import { asRefusal, type Refusal } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";

// Answering the admins' forms: a refused one sent back with its messages,
// and the password change every admin makes for herself (the Family admins
// section and a helper's account page).

/** A refused change as the form's answer: the message beside its field (or above the form), what was typed kept except passwords. */
export function refusedForm(
  form: "add-admin" | "change-password",
  submission: {
    reply(options: { fieldErrors?: Record<string, string[]>; formErrors?: string[]; hideFields?: string[] }): SubmissionResult<string[]>;
  },
  refusal: Refusal,
  fields: string[],
  hideFields: string[],
) {
  const reply = fields.includes(refusal.field)
    ? submission.reply({ fieldErrors: { [refusal.field]: [refusal.message] }, hideFields })
    : submission.reply({ formErrors: [refusal.message], hideFields });
  return json({ form, result: reply } as FamilyAdminsAnswer, { status: refusal.status, headers: refusal.headers });
}

/** Changes the admin's own password from the form: back to `returnTo` with a toast, or the form again with its messages. */
export async function changePasswordForm(admin: AdminActor, form: FormData, returnTo: string, clientIp: string | undefined) {
  const hideFields = ["currentPassword", "newPassword", "confirmPassword"];
  const submission = parseWithZod(form, { schema: PasswordChangeFormSchema });
  if (submission.status !== "success") {
    return json({ form: "change-password", result: submission.reply({ hideFields }) } as FamilyAdminsAnswer, { status: 400 });
  }
  try {
    await changeAdminPassword(admin, submission.value, { clientIp });
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return refusedForm("change-password", submission, refusal, ["currentPassword", "newPassword"], hideFields);
  }
  return redirectWithToast(returnTo, PASSWORD_CHANGED);
}
