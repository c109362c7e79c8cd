import { getZodConstraint } from "@conform-to/zod/v4";
import { bundledMedia } from "~/content";
import type { HeroImageView, KarenMusicView } from "~/site/site-view";
import { z } from "~/utils/zod";
import { PHOTO_ACCEPT, PHOTO_FAILED } from "./photo-form";
import { SettingsFields } from "./settings.schema";

// The family's hero photo and Karen Mode song: the words, limits and fields
// of their two forms, and how a stored record becomes what pages show.
// Client-safe (no server imports): the forms and getSiteView use it.

/** Where the Site tab lives; the two forms come back to it. */
export const SITE_TAB_PATH = "/admin/site";
export const HERO_PHOTO_ACTION = "/admin/site/hero";
export const KAREN_SONG_ACTION = "/admin/site/song";
/** The sections' ids: the forms come back to `#hero-photo` and `#karen-song`. */
export const HERO_PHOTO_SECTION = "hero-photo";
export const KAREN_SONG_SECTION = "karen-song";

/** A phone's photo is 2 to 12 MB; a camera's largest JPEG or a 48 MP HEIC stays under this. */
export const MAX_HERO_PHOTO_BYTES = 25 * 1024 * 1024;
/** About 15 minutes of a 128 kbit/s MP3: far more than a party loop needs. */
export const MAX_KAREN_SONG_BYTES = 15 * 1024 * 1024;

/** What the file pickers offer; the server decides from the bytes themselves. */
export const HERO_PHOTO_ACCEPT = PHOTO_ACCEPT;
export const KAREN_SONG_ACCEPT = "audio/mpeg,.mp3";

export const KAREN_SONG_TITLE_MAX = 200;

/** The hero form's text: the alt text, checked exactly as the settings check it. */
export const HeroPhotoFields = z.object({ heroImageAlt: SettingsFields.shape.heroImageAlt });
/** The song form's text: an optional title (the file's name when empty). */
export const KarenSongFields = z.object({
  title: z
    .string({ message: "Song title must be text" })
    .trim()
    .max(KAREN_SONG_TITLE_MAX, `Song title must be at most ${KAREN_SONG_TITLE_MAX} characters`)
    .default(""),
});

/** The browser's own checks for the text fields, from the same schemas (required, maxLength). */
export const heroPhotoConstraint = getZodConstraint(HeroPhotoFields);
export const karenSongConstraint = getZodConstraint(KarenSongFields);

export const PHOTO_NOT_SUPPORTED = "This file is not a photo the site can use. Please choose a JPG, PNG, WebP or HEIC photo.";
export const PHOTO_TOO_LARGE = "The photo is larger than 25 MB. Please choose a smaller file.";
export const SONG_REQUIRED = "Please choose an MP3 file to upload.";
export const SONG_NOT_MP3 = "This file is not an MP3 song, so it cannot be played in Karen Mode. Please choose an MP3 file.";
export const SONG_TOO_LARGE = "The song is larger than 15 MB. Please choose a shorter song or a smaller MP3 file.";

export const HERO_PHOTO_SAVED = { title: "Photo Saved", description: "The home page now shows the new photo." } as const;
export const HERO_DESCRIPTION_SAVED = {
  title: "Description Saved",
  description: "The photo's new description is read to visitors who cannot see it.",
} as const;
export const HERO_PHOTO_RESET = { title: "Photo Reset", description: "The home page shows the original photo again." } as const;
export const KAREN_SONG_SAVED = { title: "Song Saved", description: "Karen Mode now plays the new song." } as const;
export const KAREN_SONG_TITLE_SAVED = {
  title: "Song Title Saved",
  description: "The player's new name is read to visitors who cannot see it.",
} as const;
export const KAREN_SONG_RESET = { title: "Song Reset", description: "Karen Mode plays the bundled song again." } as const;
export const HERO_PHOTO_FAILED = PHOTO_FAILED;
export const KAREN_SONG_FAILED = "Song Not Saved";

/** What a refused form comes back with: the reasons, and what was typed (a file cannot be given back). */
export interface SiteMediaFormResult {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
  values: Record<string, string>;
}

/** Keys the server made for the family's files: `site/<name>`, never a path of the visitor's choosing. */
const siteKey = z.string().regex(/^site\/(hero|song|life)-[A-Za-z0-9_-]+\.(webp|jpg|mp3)$/);
const size = z.number().int().positive();

/** The hero photo as stored (STORED_KEYS.heroImage): one WebP and one JPEG per width, narrowest first. */
export const StoredHeroImage = z.object({
  copies: z.array(z.object({ width: size, height: size, webp: siteKey, jpeg: siteKey })).min(1),
  originalName: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type StoredHeroImage = z.infer<typeof StoredHeroImage>;

/** The Karen Mode song as stored (STORED_KEYS.karenSong). */
export const StoredKarenSong = z.object({
  key: siteKey,
  title: z.string().min(1),
  originalName: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type StoredKarenSong = z.infer<typeof StoredKarenSong>;

/** The address a stored file is served at (app/routes/media.site.$file.ts). */
const siteMediaUrl = (key: string) => `/media/site/${key.slice("site/".length)}`;

/** The width link previews and the `<img>` fallback use: the largest copy up to this. */
const PREVIEW_WIDTH = 1280;

const BUNDLED_HERO_IMAGE: HeroImageView = { src: bundledMedia.heroImage, width: 1600, height: 1000 };

/** What pages show of the hero photo: the family's (several widths, WebP and JPEG) or the bundled one. */
export const heroImageView = (stored: unknown): HeroImageView => uploadedPhotoView(stored) ?? BUNDLED_HERO_IMAGE;

/** A photo the family uploaded (the hero's, the life story's) as pages show it, or null when there is none. */
export function uploadedPhotoView(stored: unknown): HeroImageView | null {
  const parsed = StoredHeroImage.safeParse(stored);
  if (!parsed.success) return null;
  const copies = [...parsed.data.copies].sort((a, b) => a.width - b.width);
  const largest = copies[copies.length - 1]!;
  const preview = copies.filter((copy) => copy.width <= PREVIEW_WIDTH).pop() ?? copies[0]!;
  const srcSet = (format: "webp" | "jpeg") => copies.map((copy) => `${siteMediaUrl(copy[format])} ${copy.width}w`).join(", ");
  return {
    src: siteMediaUrl(preview.jpeg),
    srcSetWebp: srcSet("webp"),
    srcSetJpeg: srcSet("jpeg"),
    width: largest.width,
    height: largest.height,
  };
}

/** What the footer player plays: the family's MP3, or the bundled loop (MP3 and Ogg). */
export function karenMusicView(stored: unknown): KarenMusicView {
  const parsed = StoredKarenSong.safeParse(stored);
  if (!parsed.success) return { ...bundledMedia.karenModeMusic };
  return { mp3: siteMediaUrl(parsed.data.key), title: parsed.data.title };
}

/** Whether the site shows the family's own photo (not the one it came with). */
export const isFamilyHeroImage = (hero: HeroImageView) => hero.src !== bundledMedia.heroImage;
/** Whether Karen Mode plays the family's own song. */
export const isFamilySong = (music: KarenMusicView) => music.mp3 !== bundledMedia.karenModeMusic.mp3;
