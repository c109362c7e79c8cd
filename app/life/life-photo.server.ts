// The photo the family uploads for the life story's page, as the hero photo
// is uploaded (app/site/hero-photo.server.ts): a plain form, checked from the
// file's own bytes, made into web copies of several widths and recorded in
// site_settings (STORED_KEYS.lifePhoto). A new photo replaces the old one
// only once its record is committed. A photo chosen from the gallery in the
// story's form is shown instead of it.
import type { Actor } from "~/platform/actor.server";
import { storePhotoCopies } from "~/site/hero-photo.server";
import { getStoredValue, STORED_KEYS } from "~/site/settings.server";
import {
  deleteUnused,
  heroKeys,
  refused,
  refusedSiteMediaForm,
  removeScratchFiles,
  replaceRecord,
  scratchFileSink,
  siteMediaForm,
  type ScratchFile,
  type SiteMediaAnswer,
} from "~/site/site-media-files.server";
import { MAX_HERO_PHOTO_BYTES, PHOTO_NOT_SUPPORTED, PHOTO_TOO_LARGE, uploadedPhotoView } from "~/site/site-media.schema";
import type { MultipartForm } from "~/platform/multipart.server";

const PHOTO_REQUIRED = "Please choose a photo to upload.";

/** The form (POST /admin/life/photo): one photo of up to 25 MB. */
export const LIFE_PHOTO_FORM = siteMediaForm({ file: "photo", maxFileBytes: MAX_HERO_PHOTO_BYTES, tooLarge: PHOTO_TOO_LARGE, fields: [] });

export const lifePhotoSink = () => scratchFileSink();

/** The uploaded photo as pages show it (several widths, WebP and JPEG), or null. */
export const uploadedLifePhoto = () => uploadedPhotoView(getStoredValue(STORED_KEYS.lifePhoto));

/** The uploaded photo's largest JPEG copy in storage, for the memory book; null when there is none. */
export function uploadedLifePhotoKey(): string | null {
  const keys = heroKeys(getStoredValue(STORED_KEYS.lifePhoto)).filter((key) => key.endsWith(".jpg"));
  return keys[keys.length - 1] ?? null;
}

/** The form, read: the photo stored and recorded, or why not. The scratch file is removed. */
export async function receiveLifePhotoForm(form: MultipartForm<ScratchFile>, by: Actor): Promise<SiteMediaAnswer> {
  const file = form.files[0];
  try {
    if (!file) return refused(400, [PHOTO_REQUIRED], {}, {});
    const photo = await storePhotoCopies(file, "life");
    if (!photo) return refused(415, [PHOTO_NOT_SUPPORTED], {}, {});
    try {
      const previous = by.commit((tx) => replaceRecord(tx, STORED_KEYS.lifePhoto, photo.record, by.username));
      await deleteUnused(heroKeys(previous));
    } catch (error) {
      await deleteUnused(photo.stored);
      throw error;
    }
    return { ok: true, saved: "file" };
  } catch (error) {
    return refusedSiteMediaForm(error, {});
  } finally {
    await removeScratchFiles(form);
  }
}

/** Takes the uploaded photo off the page; its files are deleted. */
export async function removeLifePhoto(by: Actor) {
  const previous = by.commit((tx) => replaceRecord(tx, STORED_KEYS.lifePhoto, null, by.username));
  await deleteUnused(heroKeys(previous));
}
