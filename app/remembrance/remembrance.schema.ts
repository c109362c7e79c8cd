import { z } from "~/utils/zod";
import { isLanguage, LANGUAGES, type Language } from "~/i18n/languages";

// The family's yearly reminders (`remembrance` in PATCH /api/admin/settings
// and the Remember tab's form): which days, how long before, at what time
// in the site's time zone, and in their words. Client-safe.

export interface Remembrance {
  /** Remind followers of the birthday (needs the month and day of birth). */
  birthday: boolean;
  /** Of the anniversary of the death (needs the month and day of death). */
  anniversary: boolean;
  /** Of the Hebrew-calendar yahrzeit (needs the full date of death). */
  yahrzeit: boolean;
  /** The death was after sunset: by the Hebrew calendar it fell on the next day. */
  afterSunset: boolean;
  /** Also this many days before (0: none before). */
  daysBefore: number;
  /** On the day itself. */
  onTheDay: boolean;
  /** "HH:MM" in the site's time zone. */
  sendAt: string;
  /** The family's words, in every reminder. */
  words: string;
}

export const REMEMBRANCE_DEFAULTS: Remembrance = {
  birthday: false,
  anniversary: false,
  yahrzeit: false,
  afterSunset: false,
  daysBefore: 7,
  onTheDay: true,
  sendAt: "09:00",
  words: "",
};

export const MAX_DAYS_BEFORE = 30;
export const MAX_WORDS = 1000;

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

const onOff = (label: string) => z.boolean({ message: `${label} must be true or false` });

/** Every field of the reminders, each checked on its own; a change gives any of them. */
const RemembranceFields = z.object({
  birthday: onOff("Birthday"),
  anniversary: onOff("Anniversary"),
  yahrzeit: onOff("Yahrzeit"),
  afterSunset: onOff("After sunset"),
  daysBefore: z
    .number({ message: `Days before must be a whole number from 0 to ${MAX_DAYS_BEFORE}` })
    .int(`Days before must be a whole number from 0 to ${MAX_DAYS_BEFORE}`)
    .min(0, `Days before must be a whole number from 0 to ${MAX_DAYS_BEFORE}`)
    .max(MAX_DAYS_BEFORE, `Days before must be a whole number from 0 to ${MAX_DAYS_BEFORE}`),
  onTheDay: onOff("On the day"),
  sendAt: z
    .string({ message: "Choose a time such as 09:00" })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Choose a time such as 09:00"),
  words: z
    .string({ message: "Your words must be text" })
    .overwrite((value) => value.replace(/\r\n/g, "\n"))
    .trim()
    .max(MAX_WORDS, `Your words must be at most ${MAX_WORDS.toLocaleString("en-US")} characters`)
    .refine((value) => !HIDDEN_BUT_LF.test(value), { message: "Your words must be plain text, without hidden characters" }),
});

export const RemembrancePatch = RemembranceFields.partial().strict();

/** The family's words in the site's other languages: language → words (only those written). */
export type WordsTranslations = Partial<Record<Language, string>>;
/** A change: empty words (or null) remove a language's, so its followers read the main language's again. */
export type WordsTranslationsPatch = Partial<Record<Language, string | null>>;

const NOT_A_LANGUAGE = `Each language must be one of ${LANGUAGES.join(", ")}`;
const MAIN_LANGUAGE_WORDS = "This is the main language: its words are the words themselves";
const WORDS_NOT_AN_OBJECT = 'Translations must be an object such as {"es": {"words": "…"}}';

/**
 * The reminders' words per language in a change of `remembrance`: `words`
 * may be language → text (the main language's entry is `words` itself,
 * left in the patch) and `translations: { es: { words } }`; refusals are
 * named `words.<language>` or `translations.<language>` (under `remembrance.`).
 */
export function splitRemembranceLanguages(
  value: Record<string, unknown>,
  main: Language,
): { rest: Record<string, unknown>; patch: WordsTranslationsPatch; errors: Record<string, string[]> } {
  const { translations, ...rest } = value;
  const errors: Record<string, string[]> = {};
  const patch: WordsTranslationsPatch = {};
  const take = (language: string, text: unknown, name: string) => {
    if (!isLanguage(language)) errors[name] = [NOT_A_LANGUAGE];
    else if (text === null) patch[language] = null;
    else {
      const parsed = RemembranceFields.shape.words.safeParse(text);
      if (parsed.success) patch[language] = parsed.data || null;
      else errors[name] = parsed.error.issues.map((issue) => issue.message);
    }
  };
  const words = rest.words;
  if (words && typeof words === "object" && !Array.isArray(words)) {
    delete rest.words;
    for (const [language, text] of Object.entries(words)) {
      if (language === main) rest.words = text;
      else take(language, text, `words.${language}`);
    }
  }
  if (translations !== undefined) {
    if (!translations || typeof translations !== "object" || Array.isArray(translations)) errors.translations = [WORDS_NOT_AN_OBJECT];
    else
      for (const [language, entry] of Object.entries(translations)) {
        const name = `translations.${language}`;
        if (language === main) errors[name] = [MAIN_LANGUAGE_WORDS];
        else if (!entry || typeof entry !== "object" || !("words" in entry)) errors[name] = [WORDS_NOT_AN_OBJECT];
        else take(language, (entry as { words: unknown }).words, name);
      }
  }
  return { rest, patch, errors };
}

/** Stored translations of the words, each still within the rules. */
export function wordsTranslationsFrom(stored: unknown): WordsTranslations {
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return {};
  const translations: WordsTranslations = {};
  for (const [language, text] of Object.entries(stored)) {
    const parsed = RemembranceFields.shape.words.safeParse(text);
    if (isLanguage(language) && parsed.success && parsed.data) translations[language] = parsed.data;
  }
  return translations;
}

/** The Remember tab's form: a box left unticked is not sent at all, and empty words are none. */
export const RemembranceForm = RemembranceFields.extend({
  birthday: onOff("Birthday").default(false),
  anniversary: onOff("Anniversary").default(false),
  yahrzeit: onOff("Yahrzeit").default(false),
  afterSunset: onOff("After sunset").default(false),
  onTheDay: onOff("On the day").default(false),
  words: RemembranceFields.shape.words.default(""),
});

// The Remember tab's answers.
export const REMINDERS_SAVED = { title: "Reminders Saved", description: "The yearly reminders have been saved." };
export const FOLLOWER_REMOVED = { title: "Follower Removed", description: "Nothing more will be sent to them." };
export const REMOVE_FOLLOWER_FAILED = {
  title: "Error",
  description: "That person could not be removed: they may have stopped following already.",
  type: "destructive" as const,
};
export const NO_SUCH_FOLLOWER = "There is no follower with this id";
export type RemembrancePatch = z.infer<typeof RemembrancePatch>;

/** A stored value read back: each field that is still valid, over the defaults. */
export function remembranceFrom(stored: unknown): Remembrance {
  const value: Remembrance = { ...REMEMBRANCE_DEFAULTS };
  if (!stored || typeof stored !== "object") return value;
  for (const [key, schema] of Object.entries(RemembranceFields.shape)) {
    const parsed = schema.safeParse((stored as Record<string, unknown>)[key]);
    if (parsed.success) (value as unknown as Record<string, unknown>)[key] = parsed.data;
  }
  return value;
}

/** Whether the family has turned any yearly reminder on. */
export const remindersOn = (remembrance: Remembrance) =>
  (remembrance.birthday || remembrance.anniversary || remembrance.yahrzeit) && (remembrance.onTheDay || remembrance.daysBefore > 0);
