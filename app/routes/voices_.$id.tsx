import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { VoiceItem } from "~/components/VoiceList";
import { pageMeta } from "~/site/meta";
import * as ui from "~/styles/ui.css";
import { getVoice, invariantResponse, json } from "~/routes/voices_.$id.server";
import * as s from "./voices.css";

// /voices/{id}: one voice memory on a page of its own, the address the
// memory book's QR codes point to. Only a published voice shared with
// permission; anything else is the 404 page.

export async function loader({ params }: LoaderFunctionArgs) {
  const id = /^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : NaN;
  const voice = Number.isSafeInteger(id) ? getVoice(id) : undefined;
  invariantResponse(voice, "Not found", { status: 404 });
  return json({ voice, title: `Voice memory from ${voice.senderName ?? "a guest"}` });
}

export default function VoicePage() {
  const { voice, title } = useLoaderData<typeof loader>();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{title}</h1>
      </div>
      <div className={s.voice}>
        <VoiceItem voice={voice} />
      </div>
      <p className={s.back}>
        <Link to="/guestbook#voices" className={ui.button.secondary}>
          Back to the guest book
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, {
    title: data?.title ?? "Voice memory",
    description: data?.voice.caption ?? undefined,
    path: data ? `/voices/${data.voice.id}` : "/voices",
  });
