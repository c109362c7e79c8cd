import { Form } from "@remix-run/react";
import * as s from "~/components/admin/admin.css";
import { ENGLISH_NAMES, languageLabel } from "~/components/admin/site-tab-fields";
import { TextareaField } from "~/components/forms";
import { LANGUAGE_TAGS, textDirection, type Language } from "~/i18n/languages";
import * as ui from "~/styles/ui.css";

export const WORDS_TRANSLATIONS_INTENT = "words-translations";
export const WORDS_TRANSLATIONS_ANCHOR = "reminder-words";

/** A refused form, with what was typed: language → words, and language → messages. */
export interface WordsTranslationsReply {
  form: "words";
  values: Record<string, string>;
  errors: Record<string, string[]>;
}

/**
 * The reminders' words in each of the site's other languages, one box each;
 * a follower reading a language left empty gets the main language's words.
 * A plain form: no JavaScript needed.
 */
export function RemembranceWordsForm({
  languages,
  mainLanguage,
  words,
  translations,
  reply,
}: {
  languages: Language[];
  mainLanguage: Language;
  words: string;
  translations: Partial<Record<Language, string>>;
  reply: WordsTranslationsReply | undefined;
}) {
  if (languages.length === 0) return null;
  const mainName = ENGLISH_NAMES[mainLanguage];
  const id = "remember-words";
  return (
    <section id={WORDS_TRANSLATIONS_ANCHOR} aria-labelledby={`${id}-title`}>
      <Form method="post" action={`/admin/remember#${WORDS_TRANSLATIONS_ANCHOR}`} className={s.form} noValidate>
        <h2 id={`${id}-title`} className={s.sectionTitle}>
          Your words in other languages
        </h2>
        <p className={s.storageNote}>
          {`Followers who read another language get your words in it; where a box is empty, they get your ${mainName} words.`}
        </p>
        {languages.map((language) => {
          const errors = reply?.errors[language];
          const errorId = `${id}-${language}-error`;
          return (
            <TextareaField
              key={language}
              label={`Your words in ${languageLabel(language)}`}
              hint={
                !translations[language] && words ? (
                  <strong className={s.missingNote}>{`Missing: followers read the ${mainName} words.`}</strong>
                ) : undefined
              }
              errors={errors}
              errorId={errorId}
              textareaProps={{
                id: `${id}-${language}`,
                name: language,
                rows: 4,
                lang: LANGUAGE_TAGS[language],
                dir: textDirection(language),
                defaultValue: reply ? (reply.values[language] ?? "") : (translations[language] ?? ""),
                "aria-invalid": errors?.length ? true : undefined,
                "aria-describedby": errors?.length ? errorId : undefined,
              }}
            />
          );
        })}
        <button type="submit" name="intent" value={WORDS_TRANSLATIONS_INTENT} className={ui.button.primary}>
          Save the words in other languages
        </button>
      </Form>
    </section>
  );
}
