import { json } from "@remix-run/node";
import type { Actor } from "~/platform/actor.server";
import { redirectWithToast } from "~/platform/toast.server";
import { isLanguage } from "~/i18n/languages";
import { getSiteSettings, updateSiteSettings } from "./settings.server";
import { checkTranslations, TRANSLATABLE_FIELDS, TRANSLATIONS_SECTION, translationsAnchor, type TranslationsReply } from "./translations";

const SAVED = { title: "Settings Saved", description: "Visitors see the change on their next page." } as const;
const NOT_SAVED = { title: "Not Saved", description: "The settings could not be saved." } as const;

/**
 * The Site tab's form of one language's translations, saved by `by`: every
 * field is sent, and an empty one removes its translation (visitors read
 * the main language's text). A refused text comes back with what was typed.
 */
export async function saveTranslations(form: FormData, by: Actor) {
  const language = form.get("language");
  const main = getSiteSettings().mainLanguage;
  if (!isLanguage(language) || language === main) return redirectWithToast("/admin/site", { ...NOT_SAVED, type: "destructive" });
  const values = Object.fromEntries(
    TRANSLATABLE_FIELDS.flatMap((field) => {
      const value = form.get(field);
      return typeof value === "string" ? [[field, value]] : [];
    }),
  );
  const check = checkTranslations({ [language]: values }, main);
  const refused = (errors: Record<string, string[]>) =>
    json<TranslationsReply>({ section: TRANSLATIONS_SECTION, language, values, errors }, { status: 400 });
  if (!check.ok) return refused(Object.fromEntries(Object.entries(check.errors).map(([key, messages]) => [key.split(".")[0]!, messages])));
  const update = await updateSiteSettings({}, by, undefined, check.patch);
  if (!update.ok) return refused(update.errors);
  const anchor = translationsAnchor(language);
  return redirectWithToast(`/admin/site?saved=${anchor}#${anchor}`, SAVED);
}
