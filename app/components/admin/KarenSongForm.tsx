import { useFetcher } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import * as f from "~/components/forms.css";
import {
  isFamilySong,
  KAREN_SONG_ACCEPT,
  KAREN_SONG_ACTION,
  KAREN_SONG_FAILED,
  KAREN_SONG_SECTION,
  karenSongConstraint,
  type SiteMediaFormResult,
} from "~/site/site-media.schema";
import { useSite } from "~/site/site-view";
import { HintedInput, ResetForm, SaveButton, siteMediaAnswer } from "./site-media-form";
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
        <HintedInput
          id="karen-song-file"
          label="New song"
          hint={
            <>
              An MP3 file of up to 15 MB. It plays in a loop while Karen Mode is on.
              {familySong ? " Leave this empty to change only the title." : null}
            </>
          }
          type="file"
          name="song"
          accept={KAREN_SONG_ACCEPT}
          required={!familySong}
          className={s.fileInput}
        />
        <HintedInput
          id="karen-song-name"
          label="Song title (optional)"
          hint="The player's name for screen readers. Left empty, the file's name is used."
          type="text"
          name="title"
          maxLength={karenSongConstraint.title?.maxLength}
          defaultValue={answer?.values.title ?? ""}
          errors={titleErrors}
          className={f.input}
        />
        <SaveButton intent={intent}>Save Song</SaveButton>
      </fetcher.Form>

      {familySong ? (
        <ResetForm fetcher={fetcher} action={KAREN_SONG_ACTION} intent={intent}>
          Use the bundled song
        </ResetForm>
      ) : null}
    </section>
  );
}
