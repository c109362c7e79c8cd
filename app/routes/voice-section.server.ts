import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { VoiceForm } from "~/components/VoiceForm";
import { VoiceList } from "~/components/VoiceList";
import { mailEnabled } from "~/mail/outbox.server";
import { decodeCursor } from "~/platform/page-cursor.server";
import { isTextBrowser } from "~/utils/text-browser";
import type { VoiceFormPage, VoiceFormReply } from "~/voices/voice-form.constants";
import { listVoices } from "~/voices/voices.server";

// "Leave a voice memory" and the guest book's "Voices", as HTML for the
// loaders of the pages that show them: both are plain HTML (a form, the
// browser's own players), and the guest book and share pages are held to
// their JavaScript budget (docs/decisions/035). React escapes every name and
// line, as in the mail and the keepsake page.

/**
 * The voice form as `from` shows it; on /voices (`standalone`: under the
 * page's own heading), with a refusal's messages and what was typed.
 */
export function voiceFormHtml(request: Request, from: VoiceFormPage, reply?: VoiceFormReply | null, { standalone = false } = {}): string {
  return renderToStaticMarkup(
    createElement(VoiceForm, {
      from,
      standalone,
      notifyOffered: mailEnabled(),
      reply,
      textBrowser: isTextBrowser(request.headers.get("User-Agent")),
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
export function voiceListHtml(request: Request): string {
  const url = new URL(request.url);
  const raw = url.searchParams.get(EARLIER);
  const before = decodeCursor(raw ?? "") ?? undefined;
  const page = listVoices({ before });
  return renderToStaticMarkup(
    createElement(VoiceList, {
      voices: page.items,
      earlier: page.next ? `/guestbook?${EARLIER}=${page.next}#voices` : null,
      newest: before ? "/guestbook#voices" : null,
    }),
  );
}
