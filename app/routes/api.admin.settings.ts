import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireFamilyApi } from "~/admins/session.server";
import { RemembrancePatch, splitRemembranceLanguages, type WordsTranslationsPatch } from "~/remembrance/remembrance.schema";
import { withServiceNews } from "~/remembrance/follower-news.server";
import {
  getRemembrance,
  getRemembranceTranslations,
  missingRemembranceWords,
  writeRemembrance,
  writeRemembranceTranslations,
} from "~/remembrance/remembrance.server";
import { NOT_A_SETTING, SettingsPatch, unknownSettings } from "~/site/settings.schema";
import { getSiteSettings, getTranslations, prepareSettingsChange } from "~/site/settings.server";
import { checkTranslations, missingTranslations, splitLanguageObjects, type TranslationCheck } from "~/site/translations";
import { isLanguage, type Language } from "~/i18n/languages";
import { errorResponse, fieldErrors, methodNotAllowed, PRIVATE_NO_STORE, readJsonObject, type FieldErrors } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";
import { HelpersReadFirst } from "~/site/read-first.schema";
import { helpersReadFirst, writeHelpersReadFirst } from "~/site/read-first.server";

const NOT_AN_OBJECT = 'The reminders must be an object such as {"anniversary": true}';

/**
 * Every setting (never the passcode) in the main language, the family's
 * `translations` of their words and, for each other language of the site,
 * the `missingTranslations`; with the yearly reminders as `remembrance`,
 * and whether helpers read first.
 */
function allSettings() {
  const settings = getSiteSettings();
  const translations = getTranslations();
  return {
    ...settings,
    translations,
    missingTranslations: missingTranslations(settings, translations),
    remembrance: {
      ...getRemembrance(),
      translations: Object.fromEntries(Object.entries(getRemembranceTranslations()).map(([language, words]) => [language, { words }])),
      missingTranslations: Object.fromEntries(missingRemembranceWords().map((language) => [language, ["words"]])),
    },
    helpersReadFirst: helpersReadFirst(),
  };
}

/**
 * The change's translations: `translations: { es: {...} }` and the
 * per-language form of each text, `{ "welcomeMessage": { "en": "…", "es": "…" } }`
 * (the main language's entry is the setting itself, left in the body).
 */
function parseTranslations(body: Record<string, unknown>, given: unknown, main: Language) {
  const split = splitLanguageObjects(body, main);
  let check: TranslationCheck;
  if (given !== undefined && (!given || typeof given !== "object" || Array.isArray(given))) check = checkTranslations(given, main);
  else {
    const combined: Record<string, unknown> = { ...(given as Record<string, unknown> | undefined) };
    for (const [language, texts] of Object.entries(split.translations)) {
      const earlier = combined[language];
      combined[language] = earlier && typeof earlier === "object" && !Array.isArray(earlier) ? { ...earlier, ...texts } : texts;
    }
    check = checkTranslations(Object.keys(combined).length > 0 ? combined : undefined, main);
  }
  const errors = { ...split.errors, ...(check.ok ? {} : check.errors) };
  return { body: split.body, patch: check.ok ? check.patch : {}, errors };
}

/** GET /api/admin/settings → every setting (never the passcode), `translations`, `missingTranslations`, `remembrance` and `helpersReadFirst`. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return json(allSettings(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

/**
 * A `remembrance` change: its own fields' errors are named "remembrance.<field>";
 * its words may be given per language (see splitRemembranceLanguages).
 */
function parseRemembrance(
  value: unknown,
  main: Language,
): { ok: true; patch: RemembrancePatch | null; words: WordsTranslationsPatch } | { ok: false; errors: FieldErrors } {
  if (value === undefined) return { ok: true, patch: null, words: {} };
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, errors: { remembrance: [NOT_AN_OBJECT] } };
  const split = splitRemembranceLanguages(value as Record<string, unknown>, main);
  const parsed = RemembrancePatch.safeParse(split.rest);
  const languageErrors = Object.fromEntries(Object.entries(split.errors).map(([name, messages]) => [`remembrance.${name}`, messages]));
  if (parsed.success && Object.keys(languageErrors).length === 0) return { ok: true, patch: parsed.data, words: split.patch };
  const errors: FieldErrors = { ...languageErrors };
  if (parsed.success) return { ok: false, errors };
  for (const issue of parsed.error.issues) {
    const names = issue.code === "unrecognized_keys" ? issue.keys : [String(issue.path[0] ?? "")];
    for (const name of names) {
      const field = name ? `remembrance.${name}` : "remembrance";
      const message = issue.code === "unrecognized_keys" ? NOT_A_SETTING : issue.message;
      if (!(errors[field] ??= []).includes(message)) errors[field].push(message);
    }
  }
  return { ok: false, errors };
}

/**
 * PATCH /api/admin/settings with any subset of the settings (and of
 * `remembrance`, and `helpersReadFirst`) → 200 with all of them; 400
 * `{"errors": {field: [message]}}` in the forms' words for a value they
 * would refuse, or a name that is not a setting. All of it is saved in one
 * commit, or none of it.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamilyApi(request);
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  const { remembrance, helpersReadFirst: readFirst, translations: givenTranslations, ...given } = await readJsonObject(request);
  const main = isLanguage(given.mainLanguage) ? given.mainLanguage : getSiteSettings().mainLanguage;
  const { body, patch: translations, errors: translationErrors } = parseTranslations(given, givenTranslations, main);
  const unknown = unknownSettings(body);
  const reminders = parseRemembrance(remembrance, main);
  const helpers = readFirst === undefined ? undefined : HelpersReadFirst.safeParse(readFirst);
  const parsed = SettingsPatch.safeParse(body);
  const errors = {
    ...unknown,
    ...(Object.keys(unknown).length === 0 && !parsed.success ? fieldErrors(parsed.error) : {}),
    ...(reminders.ok ? {} : reminders.errors),
    ...(helpers && !helpers.success ? { helpersReadFirst: helpers.error.issues.map((issue) => issue.message) } : {}),
    ...translationErrors,
  };
  if (Object.keys(errors).length > 0 || !parsed.success || !reminders.ok || helpers?.success === false) return errorResponse(400, errors);
  return answerRefusals(async () => {
    const change = await prepareSettingsChange(parsed.data, translations);
    if (!change.ok) return errorResponse(400, change.errors);
    admin.commit((tx) => {
      withServiceNews(tx, () => change.write(tx, admin.username));
      if (reminders.patch) writeRemembrance(tx, reminders.patch, admin.username);
      writeRemembranceTranslations(tx, reminders.words, admin.username);
      if (helpers?.success) writeHelpersReadFirst(tx, helpers.data, admin.username);
    });
    return json(allSettings(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
  });
}
