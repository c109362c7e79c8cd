import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireFamilyApi } from "~/admins/session.server";
import { LifeApiInput } from "~/life/life.schema";
import { adminLifeApi, putLife } from "~/life/life.server";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";
import { splitStoryLanguages } from "~/life/life-translations";
import { getSiteSettings } from "~/site/settings.server";

/** The story (30,000 characters) and a full timeline, even with every character written as a \u escape. */
const MAX_LIFE_JSON_BYTES = 1024 * 1024;

/** GET /api/admin/life → the life story as visitors would read it, with `published`, `translations` and `missingTranslations`. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return json(adminLifeApi(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * PUT /api/admin/life with any of the fields GET answers → 200 with all of
 * them; 400 `{"errors": {field: [message]}}` for what the forms would refuse.
 * The story may be language → text (the main language's is the story, the
 * others translations, refusals named `story.<language>`), and
 * `translations: { es: { story } }` is taken too; an empty one is removed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamilyApi(request);
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const { story, translations, ...body } = await readJsonObject(request, MAX_LIFE_JSON_BYTES);
  const languages = splitStoryLanguages(story, translations, getSiteSettings().mainLanguage);
  const parsed = LifeApiInput.safeParse(languages.story === undefined ? body : { ...body, story: languages.story });
  const errors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...(languages.check.ok ? {} : languages.check.errors) };
  if (!parsed.success || !languages.check.ok) return errorResponse(400, errors);
  const patch = languages.check.patch;
  return answerRefusals(async () => {
    const update = await putLife(parsed.data, admin, patch);
    if (!update.ok) return errorResponse(400, update.errors);
    return json(adminLifeApi(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
  });
}
