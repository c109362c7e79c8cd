import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { VoiceForm } from "~/components/VoiceForm";
import { VoiceList } from "~/components/VoiceList";
import { mailEnabled } from "~/mail/outbox.server";
import { decodeCursor } from "~/platform/page-cursor.server";
import { isTextBrowser } from "~/utils/text-browser";
import type { VoiceFormPage, VoiceFormReply } from "~/voices/voice-form.constants";

/** The voice form's and list's words in `language`: the catalogs' messages, and refusals by their English words. */
export function voiceWords(language: Language): VoiceWords {
  const t = translate(language);
  return {
    t,
    tError: (english) => {
      if (english === LINE_TOO_LONG) return t("voices.errors.lineTooLong", { max: VOICE_LINE_MAX });
      return tooLongIn(english, t) ?? translateError(language, english);
    },
  };
}

/** What the in-page recorder says in `language` (undefined in English: its own words). */
function recorderWords(language: Language, { t, tError }: VoiceWords): string | undefined {
  if (language === DEFAULT_LANGUAGE) return undefined;
  const errors: Record<string, string> = { [LINE_TOO_LONG]: tError(LINE_TOO_LONG) };
  for (const english of Object.keys(pageWords(language, ["share", "voices"]).errors)) errors[english] = tError(english);
  const words: RecorderWords = {
    recorder: Object.fromEntries(Object.keys(RECORDER).map((key) => [key, t(`voices.recorder.${key}`)])) as RecorderWords["recorder"],
    fields: Object.fromEntries(Object.keys(VOICE_FIELDS).map((key) => [key, t(`voices.fields.${key}`)])) as RecorderWords["fields"],
    sent: { title: t("voices.sent.title"), description: t("voices.sent.description") },
    recording: t("voices.recorder.recording", { time: "{time}", max: "{max}" }),
    recorded: t("voices.recorder.recorded", { time: "{time}" }),
    tooLong: t("voices.errors.tooLong", { length: "{length}" }),
    errors,
  };
  return JSON.stringify(words);
}
import { listVoices } from "~/voices/voices.server";
import { DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";
import { pageWords, translate, translateError } from "~/i18n/i18n.server";
import { VOICE_LINE_MAX } from "~/media/limits";
import { tooLongIn } from "~/media/voice-length";
import { LINE_TOO_LONG, RECORDER, VOICE_FIELDS, type RecorderWords, type VoiceWords } from "~/voices/voice-form.constants";

// "Leave a voice memory" and the guest book's "Voices", as HTML for the
// loaders of the pages that show them: both are plain HTML (a form, the
// browser's own players), and the guest book and share pages are held to
// their JavaScript budget (docs/decisions/035). React escapes every name and
// line, as in the mail and the keepsake page.

/**
 * The voice form as `from` shows it; on /voices (`standalone`: under the
 * page's own heading), with a refusal's messages and what was typed.
 */
export function voiceFormHtml(
  request: Request,
  from: VoiceFormPage,
  reply?: VoiceFormReply | null,
  { standalone = false, language = DEFAULT_LANGUAGE }: { standalone?: boolean; language?: Language } = {},
): string {
  const words = voiceWords(language);
  return renderToStaticMarkup(
    createElement(VoiceForm, {
      from,
      standalone,
      notifyOffered: mailEnabled(),
      reply,
      textBrowser: isTextBrowser(request.headers.get("User-Agent")),
      words,
      recorderWords: recorderWords(language, words),
    }),
  );
}

/** The address parameter of the guest book's older voices (a cursor, as the lists' "before"). */
const EARLIER = "voices";

/**
 * The guest book's "Voices": the newest page, or the page after the
 * `?voices=` cursor (a cursor this site did not write counts as the newest
 * page), with plain links between them.
 */
export function voiceListHtml(request: Request, language: Language = DEFAULT_LANGUAGE): string {
  const url = new URL(request.url);
  const raw = url.searchParams.get(EARLIER);
  const before = decodeCursor(raw ?? "") ?? undefined;
  const page = listVoices({ before });
  return renderToStaticMarkup(
    createElement(VoiceList, {
      voices: page.items,
      earlier: page.next ? `/guestbook?${EARLIER}=${page.next}#voices` : null,
      newest: before ? "/guestbook#voices" : null,
      t: translate(language),
    }),
  );
}
