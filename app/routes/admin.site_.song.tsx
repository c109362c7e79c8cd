import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { KarenSongForm } from "~/components/admin/KarenSongForm";
import { KAREN_SONG_FORM, karenSongSink, receiveKarenSongForm, resetKarenSong } from "~/site/karen-song.server";
import { KAREN_SONG_RESET, KAREN_SONG_SAVED, KAREN_SONG_SECTION, KAREN_SONG_TITLE_SAVED, SITE_TAB_PATH } from "~/site/site-media.schema";
import { pageMeta } from "~/site/meta";
import { loaderCacheControl } from "~/platform/http.server";
import { answerSiteMediaForm, siteMediaPage } from "~/routes/site-media-actions.server";

// POST /admin/site/song: the Karen Mode song form of the Site tab (upload, or
// intent=reset for the bundled song); see answerSiteMediaForm.

export const headers = loaderCacheControl;

export const loader = ({ request }: LoaderFunctionArgs) => siteMediaPage(request);

export const action = ({ request }: ActionFunctionArgs) =>
  answerSiteMediaForm(request, {
    section: KAREN_SONG_SECTION,
    upload: KAREN_SONG_FORM,
    sink: karenSongSink,
    receive: receiveKarenSongForm,
    reset: resetKarenSong,
    toasts: { file: KAREN_SONG_SAVED, words: KAREN_SONG_TITLE_SAVED, reset: KAREN_SONG_RESET },
  });

export default function KarenSongAnswer() {
  const data = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to={`${SITE_TAB_PATH}#${KAREN_SONG_SECTION}`}>Back to the site settings</Link>
      </p>
      <KarenSongForm answer={data?.result} />
    </>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Karen Mode song", description: "The song Karen Mode plays.", path: "/admin/site/song" });
