import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { VoiceItem } from "~/components/VoiceList";
import { pageMeta } from "~/site/meta";
import * as ui from "~/styles/ui.css";
import { getVoice, invariantResponse, json, pageWords, visitorLanguage } from "~/routes/voices_.$id.server";
import { translatorFromMatches, useT } from "~/components/useT";
import { itemTitle } from "~/uploads/item-title";
import * as s from "./voices.css";

// /voices/{id}: one voice memory on a page of its own, the address the
// memory book's QR codes point to. Only a published voice shared with
// permission; anything else is the 404 page.

export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = /^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : NaN;
  const voice = Number.isSafeInteger(id) ? getVoice(id) : undefined;
  invariantResponse(voice, "Not found", { status: 404 });
  return json({ voice, words: pageWords(await visitorLanguage(request), ["voices", "gallery"]) });
}

export default function VoicePage() {
  const { voice } = useLoaderData<typeof loader>();
  const { t } = useT();
  const title = itemTitle(t, { ...voice, durationSec: null });
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{title}</h1>
      </div>
      <div className={s.voice}>
        <VoiceItem voice={voice} t={t} />
      </div>
      <p className={s.back}>
        <Link to="/guestbook#voices" className={ui.button.secondary}>
          {t("voices.page.back")}
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, {
    title: data ? itemTitle(t, { ...data.voice, durationSec: null }) : t("voices.page.voiceMemory"),
    description: data?.voice.caption ?? undefined,
    path: data ? `/voices/${data.voice.id}` : "/voices",
  });
};
