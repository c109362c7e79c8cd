import { Form } from "@remix-run/react";
import * as s from "~/components/admin/admin.css";
import { ENGLISH_NAMES, languageLabel } from "~/components/admin/site-tab-fields";
import { TextareaField } from "~/components/forms";
import { LANGUAGE_TAGS, textDirection, type Language } from "~/i18n/languages";
import { STORY_TRANSLATION_INTENT, storyTranslationAnchor } from "~/life/life-translations";
import * as ui from "~/styles/ui.css";

/** A refused story in another language, sent back with what was typed. */
export interface StoryTranslationReply {
  form: "translation";
  language: Language;
  value: string;
  errors: string[];
}

/**
 * The life story in one of the site's other languages: empty, visitors
 * reading it are given the main language's story (said, when there is one).
 * A plain form: no JavaScript needed.
 */
export function StoryTranslationForm({
  language,
  mainLanguage,
  mainStory,
  story,
  reply,
}: {
  language: Language;
  mainLanguage: Language;
  mainStory: string;
  story: string;
  reply: StoryTranslationReply | undefined;
}) {
  const anchor = storyTranslationAnchor(language);
  const id = `life-${anchor}`;
  const mainName = ENGLISH_NAMES[mainLanguage];
  return (
    <section id={anchor} aria-labelledby={`${id}-title`}>
      <Form method="post" action={`/admin/life#${anchor}`} className={s.form} noValidate>
        <h2 id={`${id}-title`} className={s.sectionTitle}>
          {`Life story in ${languageLabel(language)}`}
        </h2>
        <p className={s.storageNote}>
          {!story && mainStory ? <strong className={s.missingNote}>{`Missing: visitors read the ${mainName} story.`}</strong> : null}
          {`Leave it empty to show the ${mainName} story to visitors reading ${ENGLISH_NAMES[language]}.`}
        </p>
        <input type="hidden" name="language" value={language} />
        <TextareaField
          label={`The story in ${ENGLISH_NAMES[language]}`}
          errors={reply?.errors}
          errorId={`${id}-error`}
          textareaProps={{
            id: `${id}-story`,
            name: "story",
            rows: 12,
            lang: LANGUAGE_TAGS[language],
            dir: textDirection(language),
            defaultValue: reply ? reply.value : story,
            "aria-invalid": reply?.errors.length ? true : undefined,
            "aria-describedby": reply?.errors.length ? `${id}-error` : undefined,
          }}
        />
        <button type="submit" name="intent" value={STORY_TRANSLATION_INTENT} className={ui.button.primary}>
          {`Save the ${ENGLISH_NAMES[language]} story`}
        </button>
      </Form>
    </section>
  );
}
