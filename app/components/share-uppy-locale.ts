// The upload dialog's words in the visitor's language: Uppy's Dashboard
// shows its own English words, and its locale packs are not part of the
// site, so every word it shows comes from the share page's catalog
// (`share.uppy.…`). Loaded with Uppy, on the click (ShareUppy.ts).
import { LANGUAGE_TAGS, type Language } from "~/i18n/languages";
import type { Translator } from "~/i18n/words";

/** Uppy's words that name a number of files: one message each, with `{count}`. */
const COUNTED = ["xFilesSelected", "uploadingXFiles", "uploadXFiles", "xMoreFilesAdded", "youCanOnlyUploadX", "filesUploadedOfTotal"];

/** Uppy's plain words, with the names of the values Uppy fills in. */
const PLAIN: Record<string, string[]> = {
  closeModal: [],
  addMoreFiles: [],
  addingMoreFiles: [],
  dashboardWindowTitle: [],
  back: [],
  removeFile: [],
  editFile: [],
  error: [],
  myDevice: [],
  uploadComplete: [],
  uploadPaused: [],
  resumeUpload: [],
  pauseUpload: [],
  retryUpload: [],
  cancelUpload: [],
  addMore: [],
  save: [],
  cancel: [],
  uploading: [],
  complete: [],
  uploadFailed: [],
  paused: [],
  retry: [],
  pause: [],
  resume: [],
  done: [],
  dataUploadedOfTotal: ["complete", "total"],
  xTimeLeft: ["time"],
  exceedsSize: ["file", "size"],
  youCanOnlyUploadFileTypes: ["types"],
  noMoreFilesAllowed: [],
  noDuplicates: ["fileName"],
  failedToUpload: ["file"],
  noInternetConnection: [],
  connectedToInternet: [],
  browseFiles: [],
  dropHint: [],
};

const CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;

/** Uppy's `%{name}` for each value, so the translated message keeps Uppy's own placeholders. */
const placeholders = (names: string[]) => Object.fromEntries(names.map((name) => [name, `%{${name}}`]));

/**
 * The Dashboard's locale in `language`, or undefined in English (Uppy's own
 * words, with the site's few). A message with a number has a form for each
 * plural category of the language, chosen by Uppy through `pluralize`.
 */
export function dashboardStrings(language: Language, t: Translator["t"], touchOnly: boolean) {
  if (language === "en") return undefined;
  const tag = LANGUAGE_TAGS[language];
  const rules = new Intl.PluralRules(tag);
  const number = new Intl.NumberFormat(tag);
  // A number of each category the language has (1 is "one", 3 "few" in Polish…), written out and put back as Uppy's placeholder.
  const samples = new Map<string, number>();
  for (let n = 0; n < 200 && samples.size < rules.resolvedOptions().pluralCategories.length; n++) {
    const category = rules.select(n);
    if (!samples.has(category)) samples.set(category, n);
  }
  const categories = CATEGORIES.filter((category) => samples.has(category));
  const strings: Record<string, string | Record<number, string>> = {};
  for (const key of COUNTED) {
    const forms: Record<number, string> = {};
    categories.forEach((category, index) => {
      const sample = samples.get(category)!;
      forms[index] = t(`share.uppy.${key}`, { count: sample, complete: "%{complete}" }).split(number.format(sample)).join("%{smart_count}");
    });
    strings[key] = forms;
  }
  for (const [key, names] of Object.entries(PLAIN)) strings[key] = t(`share.uppy.${key}`, placeholders(names));
  strings.dropPasteFiles = touchOnly ? "%{browseFiles}" : t("share.uppy.dropPasteFiles", { browseFiles: "%{browseFiles}" });
  return {
    strings,
    pluralize: (count: number) => Math.max(0, categories.indexOf(rules.select(count) as (typeof CATEGORIES)[number])),
  };
}
