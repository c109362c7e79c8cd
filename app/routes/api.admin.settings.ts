import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/admins/session.server";
import { SettingsPatch, unknownSettings } from "~/site/settings.schema";
import { getSiteSettings, updateSiteSettings } from "~/site/settings.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/** GET /api/admin/settings → every setting (never the passcode). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json(getSiteSettings(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * PATCH /api/admin/settings with any subset of the settings → 200 with all of
 * them; 400 `{"errors": {field: [message]}}` in the Site tab's words for a
 * value the form would refuse, or a name that is not a setting.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdminApi(request);
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const body = await readJsonObject(request);
  const unknown = unknownSettings(body);
  if (Object.keys(unknown).length > 0) return errorResponse(400, unknown);
  const parsed = SettingsPatch.safeParse(body);
  if (!parsed.success) return errorResponse(400, fieldErrors(parsed.error));
  return answerRefusals(async () => {
    const update = await updateSiteSettings(parsed.data, admin);
    if (!update.ok) return errorResponse(400, update.errors);
    return json(update.settings, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
  });
}
