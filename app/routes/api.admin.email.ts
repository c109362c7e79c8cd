import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { MailPreferencesSchema } from "~/mail/mail.schema";
import { getMailPreferences, saveMailPreferences } from "~/mail/notifications.server";
import { mailEnabled, outboxStatus } from "~/mail/outbox.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/**
 * GET /api/admin/email → {enabled, preferences: {email, mailChoice, digestTime, unsubscribed},
 * outbox: {waiting, problems}}: the E-mail tab of the admin asking (a helper's problems are always
 * empty: they name recipients).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminApi(request);
  return json(
    { enabled: mailEnabled(), preferences: getMailPreferences(admin.id), outbox: outboxStatus(admin.role) },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

/** PATCH /api/admin/email {email, mailChoice, digestTime}: the asking admin's own choice, with the form's rules → 200 with it. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const parsed = MailPreferencesSchema.safeParse(await readJsonObject(request));
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(() => json(saveMailPreferences(parsed.data, admin), { headers: { "Cache-Control": PRIVATE_NO_STORE } }));
}
