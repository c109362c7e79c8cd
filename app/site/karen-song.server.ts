// The family's Karen Mode song: an MP3 uploaded from the admin panel with a
// plain form, told from its own bytes, stored with the media driver (local
// disk or S3) under a name made from its contents, and recorded in
// site_settings (STORED_KEYS.karenSong). A new song replaces the old one only
// once its record is committed: a refusal keeps what Karen Mode played.
import { createReadStream } from "node:fs";
import type { Actor } from "~/platform/actor.server";
import { isMp3File } from "~/media/mp3.server";
import { fieldErrors } from "~/platform/http.server";
import type { MultipartForm } from "~/platform/multipart.server";
import { getStoredValue, setStoredValue, STORED_KEYS } from "./settings.server";
import {
  contentName,
  deleteUnused,
  refused,
  refusedSiteMediaForm,
  removeScratchFiles,
  replaceRecord,
  scratchFileSink,
  siteMediaForm,
  songKeys,
  storeOnce,
  type ScratchFile,
  type SiteMediaAnswer,
} from "./site-media-files.server";
import {
  KarenSongFields,
  KAREN_SONG_TITLE_MAX,
  MAX_KAREN_SONG_BYTES,
  SONG_NOT_MP3,
  SONG_REQUIRED,
  SONG_TOO_LARGE,
  StoredKarenSong,
} from "./site-media.schema";

/** The song form (POST /admin/site/song): an MP3 of up to 15 MB and its title. */
export const KAREN_SONG_FORM = siteMediaForm({
  file: "song",
  maxFileBytes: MAX_KAREN_SONG_BYTES,
  tooLarge: SONG_TOO_LARGE,
  fields: ["title"],
});

/** Where the song form's file waits while it is checked: a scratch file, once the disk has room for it. */
export const karenSongSink = () => scratchFileSink();

const DEFAULT_SONG_TITLE = "Karen Mode song";

/** "Dancing Queen.mp3" → "Dancing Queen": the title when the family gives none. */
export function songTitleFromFileName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const title = base
    .replace(/\.[^.]{1,5}$/, "")
    .replace(/[\s_]+/g, " ")
    .trim()
    .slice(0, KAREN_SONG_TITLE_MAX)
    .trim();
  return title || DEFAULT_SONG_TITLE;
}

/**
 * The song form, read (KAREN_SONG_FORM, karenSongSink): an MP3 (told from
 * its bytes) and an optional title, or once the family has a song, a new
 * title alone. Karen Mode plays it from the next page on; a refusal keeps the
 * song before. The song's scratch file is removed.
 */
export async function receiveKarenSongForm(form: MultipartForm<ScratchFile>, by: Actor): Promise<SiteMediaAnswer> {
  const values: Record<string, string> = { ...form.fields };
  const file = form.files[0];
  try {
    values.title ??= "";
    const title = KarenSongFields.safeParse({ title: values.title });
    const problems = title.success ? {} : fieldErrors(title.error);
    if (!file && !StoredKarenSong.safeParse(getStoredValue(STORED_KEYS.karenSong)).success) {
      return refused(400, [SONG_REQUIRED], problems, values);
    }
    if (!title.success) return refused(400, [], problems, values);
    if (!file) {
      // No file chosen: the family's song keeps playing under a new title (read and written in one commit).
      const newTitle = title.data.title;
      by.commit((tx) => {
        const current = StoredKarenSong.parse(getStoredValue(STORED_KEYS.karenSong, tx));
        setStoredValue(
          tx,
          STORED_KEYS.karenSong,
          { ...current, title: newTitle || songTitleFromFileName(current.originalName) },
          by.username,
        );
      });
      return { ok: true, saved: "words" };
    }
    if (!(await isMp3File(file.stored.path))) return refused(415, [SONG_NOT_MP3], {}, values);

    const key = `site/song-${contentName(file.stored.sha256)}.mp3`;
    const record: StoredKarenSong = {
      key,
      title: title.data.title || songTitleFromFileName(file.filename),
      originalName: file.filename.slice(0, 255),
      bytes: file.size,
    };
    try {
      await storeOnce(key, () => createReadStream(file.stored.path), { contentType: "audio/mpeg", size: file.size });
      const previous = by.commit((tx) => replaceRecord(tx, STORED_KEYS.karenSong, record, by.username));
      await deleteUnused(songKeys(previous));
    } catch (error) {
      await deleteUnused([key]);
      throw error;
    }
    return { ok: true, saved: "file" };
  } catch (error) {
    return refusedSiteMediaForm(error, values);
  } finally {
    await removeScratchFiles(form);
  }
}

/** Back to the loop the site came with; the family's file is deleted. */
export async function resetKarenSong(by: Actor) {
  const previous = by.commit((tx) => replaceRecord(tx, STORED_KEYS.karenSong, null, by.username));
  await deleteUnused(songKeys(previous));
}
