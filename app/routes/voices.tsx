import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import {
  json,
  noStoreHeaders,
  pageWords,
  receiveVoiceRequest,
  redirectWithToast,
  translate,
  visitorLanguage,
  voiceFormHtml,
} from "~/routes/voices.server";
import { translatorFromMatches, useT } from "~/components/useT";
import { pageMeta } from "~/site/meta";
import * as ui from "~/styles/ui.css";
// The form comes as HTML (here, on the guest book and on the share page): its styles reach the
// site's one stylesheet through this route, the only module of the browser's build that names them.
import "~/components/VoiceForm.css";

// /voices: "Leave a voice memory" on a page of its own, and where every voice
// form posts (the guest book's and the share page's too). Sent, it goes back
// (303) to the page it came from with a toast; refused, this page answers
// with the form, each field's message, a summary and what was typed. The
// in-page recorder sends the same form to /api/voices (JSON answers).

// A form page: never stored, so Back fetches it afresh.
export const headers = noStoreHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  // The form as HTML, as on the guest book and the share page: the page loads no code for it.
  const language = await visitorLanguage(request);
  return json({
    formHtml: voiceFormHtml(request, "/voices", null, { standalone: true, language }),
    words: pageWords(language, ["voices"]),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const language = await visitorLanguage(request);
  const outcome = await receiveVoiceRequest(request, context.clientIp, language);
  if (outcome.done) {
    const t = translate(language);
    return redirectWithToast(outcome.from, { title: t("voices.sent.title"), description: t("voices.sent.description") }, { status: 303 });
  }
  // The form comes back here, still sending to the page it came from once put right.
  const formHtml = voiceFormHtml(request, outcome.reply.from, outcome.reply, { standalone: true, language });
  return json({ formHtml }, { status: outcome.status, headers: outcome.headers });
}

export default function VoicesPage() {
  const { formHtml } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const { t } = useT();
  useEffect(() => {
    // The recorder, on demand: until it arrives (or where it cannot run) the plain form works.
    void import("~/components/VoiceRecorder").then((recorder) => recorder.default());
  }, []);
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1 id="voice-title">{t("voices.form.title")}</h1>
        <p className={ui.subtitle}>{t("voices.form.intro")}</p>
      </div>
      <div dangerouslySetInnerHTML={{ __html: refused ? refused.formHtml : formHtml }} />
      <p className={ui.pageHeader}>
        <Link to="/guestbook#voices">{t("voices.page.listen")}</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("voices.form.title"), description: t("voices.form.intro"), path: "/voices" });
};
