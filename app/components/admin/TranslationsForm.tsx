import { Form, useNavigation } from "@remix-run/react";
import * as s from "~/components/admin/admin.css";
import { ErrorSummary } from "~/components/admin/ErrorSummary";
import { ENGLISH_NAMES, FIELDS, languageLabel } from "~/components/admin/site-tab-fields";
import { Field, TextareaField } from "~/components/forms";
import { LANGUAGE_TAGS, textDirection, type Language } from "~/i18n/languages";
import { MULTI_LINE_SETTINGS } from "~/site/settings.schema";
import {
  TRANSLATABLE_FIELDS,
  TRANSLATIONS_SECTION,
  translationsAnchor,
  type TranslatableField,
  type TranslationsReply,
} from "~/site/translations";
import * as ui from "~/styles/ui.css";

/**
 * The family's texts in `language`, one field each, with the main
 * language's text shown under the label; a text not yet translated is
 * marked (visitors read the main language's). A plain form: no JavaScript needed.
 */
export function TranslationsForm({
  language,
  mainLanguage,
  main,
  translations,
  saved,
  reply,
}: {
  language: Language;
  mainLanguage: Language;
  main: Record<TranslatableField, string>;
  translations: Partial<Record<TranslatableField, string>>;
  saved: boolean;
  reply: TranslationsReply | undefined;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("language") === language;
  const anchor = translationsAnchor(language);
  const id = `site-${anchor}`;
  const fields = TRANSLATABLE_FIELDS.filter((field) => main[field] || translations[field]);
  const missing = fields.filter((field) => main[field] && !translations[field]);
  const mainName = ENGLISH_NAMES[mainLanguage];
  const errors = reply?.errors ?? {};
  return (
    <section id={anchor} aria-labelledby={`${id}-title`}>
      <Form method="post" action={`/admin/site#${anchor}`} id={id} className={s.form} noValidate>
        <h2 id={`${id}-title`} className={s.sectionTitle}>
          {`Translations: ${languageLabel(language)}`}
        </h2>
        {saved && !reply && !saving ? (
          <p role="status" className={s.savedNote}>
            <strong>Settings Saved.</strong> Visitors see the change on their next page.
          </p>
        ) : null}
        <p className={s.storageNote}>
          {missing.length === 0
            ? `Every text is translated into ${ENGLISH_NAMES[language]}.`
            : `${missing.length} of ${fields.length} texts are missing in ${ENGLISH_NAMES[language]}: visitors read the ${mainName} text instead. Leave a field empty to use the ${mainName} text.`}
        </p>
        <ErrorSummary
          title="Not Saved"
          formErrors={[]}
          fieldErrors={fields.flatMap((field) =>
            errors[field]?.length ? [{ label: FIELDS[field].label, target: `${id}-${field}`, messages: errors[field] }] : [],
          )}
        />
        <input type="hidden" name="section" value={TRANSLATIONS_SECTION} />
        <input type="hidden" name="language" value={language} />
        {fields.map((field) => {
          const errorId = `${id}-${field}-error`;
          const hint = (
            <>
              {!translations[field] && main[field] ? (
                <strong className={s.missingNote}>{`Missing: visitors read the ${mainName} text.`}</strong>
              ) : null}
              <span>{`${mainName}: “${main[field] || "(empty)"}”`}</span>
            </>
          );
          const props = {
            id: `${id}-${field}`,
            name: field,
            lang: LANGUAGE_TAGS[language],
            dir: textDirection(language),
            defaultValue: reply ? (reply.values[field] ?? "") : (translations[field] ?? ""),
            "aria-invalid": errors[field]?.length ? true : undefined,
            "aria-describedby": errors[field]?.length ? errorId : undefined,
          };
          return MULTI_LINE_SETTINGS.has(field) ? (
            <TextareaField
              key={field}
              label={FIELDS[field].label}
              hint={hint}
              errors={errors[field]}
              errorId={errorId}
              textareaProps={props}
            />
          ) : (
            <Field key={field} label={FIELDS[field].label} hint={hint} errors={errors[field]} errorId={errorId} inputProps={props} />
          );
        })}
        <button type="submit" className={ui.button.primary} disabled={saving}>
          {saving ? "Saving..." : `Save the ${ENGLISH_NAMES[language]} texts`}
        </button>
      </Form>
    </section>
  );
}
