import { useFetcher } from "@remix-run/react";
import { ErrorList, FormAlert } from "~/components/forms";
import * as f from "~/components/forms.css";
import {
  isFamilySong,
  KAREN_SONG_ACCEPT,
  KAREN_SONG_ACTION,
  KAREN_SONG_FAILED,
  KAREN_SONG_SECTION,
  karenSongConstraint,
  type SiteMediaFormResult,
} from "~/models/site-media.schema";
import * as ui from "~/styles/ui.css";
import { useSite } from "~/utils/site";
import { siteMediaAnswer } from "./site-media-form";
import * as s from "./site-media.css";

/**
 * The Karen Mode song: the one playing now (with the browser's own player),
 * a plain form to upload an MP3 instead (it works without JavaScript) and,
 * once the family has their own, a way back to the bundled loop. `answer`
 * as for HeroPhotoForm.
 */
export function KarenSongForm({ answer }: { answer?: SiteMediaFormResult }) {
  const music = useSite().karenMusic;
  const fetcher = useFetcher<{ result?: SiteMediaFormResult }>({ key: KAREN_SONG_SECTION });
  const result = siteMediaAnswer(fetcher, answer);
  const intent = fetcher.state === "idle" ? null : fetcher.formData?.get("intent");
  const titleErrors = result?.fieldErrors.title;
  const familySong = isFamilySong(music);

  return (
    <section id={KAREN_SONG_SECTION} className={s.section} aria-labelledby="karen-song-title">
      <h2 id="karen-song-title" className={s.title}>
        Karen Mode song
      </h2>
      <div className={s.current}>
        <p id="karen-song-now">
          {familySong ? "Karen Mode plays " : "Karen Mode plays the song the site came with, "}“{music.title}”.
        </p>
        {/* A new song gets a new player: an <audio> keeps the source it loaded first. */}
        <audio key={music.mp3} controls preload="none" className={s.audio} aria-labelledby="karen-song-now">
          {music.ogg ? <source src={music.ogg} type="audio/ogg" /> : null}
          <source src={music.mp3} type="audio/mpeg" />
          <a href={music.mp3}>Listen to “{music.title}”</a>
        </audio>
      </div>

      <fetcher.Form key={music.mp3} method="post" action={KAREN_SONG_ACTION} encType="multipart/form-data" preventScrollReset>
        <FormAlert title={KAREN_SONG_FAILED} messages={result?.formErrors} />
        <div className={f.field}>
          <label htmlFor="karen-song-file" className={f.label}>
            New song
          </label>
          <p id="karen-song-file-hint" className={f.hint}>
            An MP3 file of up to 15 MB. It plays in a loop while Karen Mode is on.
            {familySong ? " Leave this empty to change only the title." : null}
          </p>
          <input
            id="karen-song-file"
            type="file"
            name="song"
            accept={KAREN_SONG_ACCEPT}
            required={!familySong}
            aria-describedby="karen-song-file-hint"
            className={s.fileInput}
          />
        </div>
        <div className={f.field}>
          <label htmlFor="karen-song-name" className={f.label}>
            Song title (optional)
          </label>
          <p id="karen-song-name-hint" className={f.hint}>
            The player&apos;s name for screen readers. Left empty, the file&apos;s name is used.
          </p>
          <input
            id="karen-song-name"
            type="text"
            name="title"
            maxLength={karenSongConstraint.title?.maxLength}
            defaultValue={answer?.values.title ?? ""}
            aria-invalid={titleErrors ? true : undefined}
            aria-describedby={titleErrors ? "karen-song-name-hint karen-song-name-error" : "karen-song-name-hint"}
            className={f.input}
          />
          <ErrorList id="karen-song-name-error" errors={titleErrors} />
        </div>
        <button type="submit" name="intent" value="upload" className={ui.button.primary} disabled={intent === "upload"}>
          {intent === "upload" ? "Saving..." : "Save Song"}
        </button>
      </fetcher.Form>

      {familySong ? (
        <fetcher.Form method="post" action={KAREN_SONG_ACTION} className={s.resetForm} preventScrollReset>
          <button type="submit" name="intent" value="reset" className={ui.button.secondary} disabled={intent === "reset"}>
            {intent === "reset" ? "Resetting..." : "Use the bundled song"}
          </button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
