import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { lifeMoments, lifeStory, uploads, type LifeMoment } from "../../db/schema";
import type { Actor } from "~/platform/actor.server";
import { db, type Transaction } from "~/platform/db.server";
import { Refusal } from "~/platform/refusal.server";
import { getSiteSettings, prepareSettingsChange } from "~/site/settings.server";
import type { SettingsPatch } from "~/site/settings.schema";
import type { FieldErrors } from "~/platform/http.server";
import {
  AnswersInput,
  MOMENTS_MAX,
  TIMELINE_FULL,
  type Answers,
  type LifeApiInput,
  type ChoosablePhoto,
  type LifePhoto,
  type MomentInput,
  type MomentView,
  type StoryInput,
} from "./life.schema";
import { firstSentence } from "./story-text";
import { toGalleryItem } from "~/uploads/gallery.server";
import type { Language } from "~/i18n/languages";
import type { StoryTranslations, StoryTranslationsPatch } from "./life-translations";
import { getStoryTranslations, missingStories, storyIn, writeStoryTranslations } from "./life-translations.server";

// The life story (app/life/life.schema.ts): one row for the story, one per
// timeline moment. Visitors see it only once the family publishes it, and
// only with photos still published in the gallery.

export interface AdminLife {
  story: string;
  answers: Answers;
  photoId: number | null;
  published: boolean;
  moments: MomentView[];
}

interface PublishedMoment extends MomentView {
  photo: LifePhoto | null;
}

/** What visitors read: the story, its photo and the timeline, with only photos the gallery still shows. */
export interface PublishedLife {
  story: string;
  photo: LifePhoto | null;
  moments: PublishedMoment[];
}

const NO_PHOTO = "Choose a photo from the gallery";

const toMomentView = (moment: LifeMoment): MomentView => ({
  id: moment.id,
  date: moment.date,
  title: moment.title,
  text: moment.text,
  photoId: moment.photoId,
});

/** A photo visitors can see in the gallery, with its web copies made. */
const shownPhoto = and(
  eq(uploads.type, "IMAGE"),
  eq(uploads.status, "APPROVED"),
  isNull(uploads.processingError),
  isNotNull(uploads.displayKey),
  isNotNull(uploads.thumbnailUrl),
);

const photoColumns = { id: uploads.id, url: uploads.url, thumbnailUrl: uploads.thumbnailUrl, width: uploads.width, height: uploads.height };

/** The photos the family may choose from: published gallery photos, newest first (at most `limit`). */
export function choosablePhotos(limit = 200): ChoosablePhoto[] {
  return db
    .select({
      ...photoColumns,
      type: uploads.type,
      submittedBy: uploads.submittedBy,
      originalName: uploads.originalName,
      durationSec: uploads.durationSec,
    })
    .from(uploads)
    .where(shownPhoto)
    .orderBy(desc(uploads.createdAt), desc(uploads.id))
    .limit(limit)
    .all()
    .map(({ type, submittedBy, originalName, durationSec, ...photo }) => {
      const { title } = toGalleryItem({ ...photo, type, submittedBy, originalName, durationSec });
      return { ...photo, thumbnailUrl: photo.thumbnailUrl!, label: originalName ? `${title} (${originalName})` : title };
    });
}

function shownPhotos(ids: (number | null)[], tx: Pick<Transaction, "select"> = db): Map<number, LifePhoto> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = tx
    .select(photoColumns)
    .from(uploads)
    .where(and(shownPhoto, inArray(uploads.id, wanted)))
    .all();
  return new Map(rows.map((photo) => [photo.id, { ...photo, thumbnailUrl: photo.thumbnailUrl! }]));
}

function readStory(tx: Pick<Transaction, "select"> = db) {
  return tx.select().from(lifeStory).where(eq(lifeStory.id, 1)).get();
}

function readMoments(tx: Pick<Transaction, "select"> = db): MomentView[] {
  return tx.select().from(lifeMoments).orderBy(asc(lifeMoments.date), asc(lifeMoments.id)).all().map(toMomentView);
}

const blankAnswers = (): Answers => AnswersInput.parse({});

/** Everything the family has written, published or not. */
export function getAdminLife(): AdminLife {
  const row = readStory();
  return {
    story: row?.story ?? "",
    answers: { ...blankAnswers(), ...(AnswersInput.safeParse(row?.answers ?? {}).data ?? {}) },
    photoId: row?.photoId ?? null,
    published: row?.published ?? false,
    moments: readMoments(),
  };
}

// Prepared once: every page's layout asks.
const selectPublished = db.select({ published: lifeStory.published }).from(lifeStory).where(eq(lifeStory.id, 1)).prepare();

/** Whether visitors see the life story (and the links to it). */
export const isLifePublished = (): boolean => selectPublished.get()?.published ?? false;

/** The published life story as visitors see it (in `language`, when the family wrote it in it), or null until the family publishes it. */
export function getPublishedLife(language?: Language): PublishedLife | null {
  const row = readStory();
  if (!row?.published) return null;
  const moments = readMoments();
  const photos = shownPhotos([row.photoId, ...moments.map((moment) => moment.photoId)]);
  const photo = (id: number | null) => (id === null ? null : (photos.get(id) ?? null));
  return {
    story: storyIn(row.story, language),
    photo: photo(row.photoId),
    // A photo the family has since taken out of the gallery is not shown here either.
    moments: moments.map((moment) => ({ ...moment, photoId: photo(moment.photoId)?.id ?? null, photo: photo(moment.photoId) })),
  };
}

/** Refuses a photo that is not a published gallery photo (read inside the write's transaction). */
function checkPhoto(tx: Transaction, id: number | null | "keep" | undefined, field = "photoId") {
  if (typeof id === "number" && !shownPhotos([id], tx).has(id)) throw new Refusal(400, field, NO_PHOTO);
}

function writeStory(tx: Transaction, values: Partial<typeof lifeStory.$inferInsert>, by: string | null) {
  const set = { ...values, updatedAt: new Date(), updatedBy: by };
  if (values.published === true) Object.assign(set, { publishedAt: sql`coalesce(${lifeStory.publishedAt}, ${Date.now()})` });
  if (values.published === false) Object.assign(set, { publishedAt: null });
  tx.insert(lifeStory)
    .values({ id: 1, ...values, ...(values.published ? { publishedAt: new Date() } : {}), updatedBy: by })
    .onConflictDoUpdate({ target: lifeStory.id, set })
    .run();
}

/** Saves the story and its photo; with `published`, publishes or unpublishes it in the same commit. */
export function saveStory(input: StoryInput, by: Actor, published?: boolean) {
  by.commit((tx) => {
    checkPhoto(tx, input.photoId);
    const photo = input.photoId === "keep" ? {} : { photoId: input.photoId };
    writeStory(tx, { story: input.story, ...photo, ...(published === undefined ? {} : { published }) }, by.username);
  });
}

/**
 * Keeps the family's answers to the guided questions with the dates and
 * places they gave (the Site tab's settings, under its rules), in one commit;
 * the reasons when the dates break a rule.
 */
export async function saveAnswers(
  person: Pick<SettingsPatch, "birthDate" | "birthPlace" | "deathDate" | "deathPlace">,
  answers: Answers,
  by: Actor,
): Promise<LifeUpdate> {
  const change = await prepareSettingsChange(person);
  if (!change.ok) return change;
  by.commit((tx) => {
    change.write(tx, by.username);
    writeStory(tx, { answers }, by.username);
  });
  return { ok: true };
}

/** A moment's columns; its photo as it is when the form says "keep". */
const momentValues = (input: MomentInput) => ({
  date: input.date,
  title: input.title,
  text: input.text,
  ...(input.photoId === "keep" ? {} : { photoId: input.photoId }),
});

export function addMoment(input: MomentInput, by: Actor): MomentView {
  return by.commit((tx) => {
    const count =
      tx
        .select({ count: sql<number>`count(*)` })
        .from(lifeMoments)
        .get()?.count ?? 0;
    if (count >= MOMENTS_MAX) throw new Refusal(400, "body", TIMELINE_FULL);
    checkPhoto(tx, input.photoId);
    const rows = tx.insert(lifeMoments).values(momentValues(input)).returning().all();
    return toMomentView(rows[0]!);
  });
}

/** Changes a moment; false when there is no such moment. */
export function updateMoment(id: number, input: MomentInput, by: Actor): boolean {
  return by.commit((tx) => {
    checkPhoto(tx, input.photoId);
    return tx.update(lifeMoments).set(momentValues(input)).where(eq(lifeMoments.id, id)).run().changes > 0;
  });
}

export function deleteMoment(id: number, by: Actor): boolean {
  return by.commit((tx) => tx.delete(lifeMoments).where(eq(lifeMoments.id, id)).run().changes > 0);
}

/** For the home page, in one read: whether the story is published (its link), and its first sentence (link previews), or "". */
export function homeLifeStory(): { lifeStory: boolean; storyOpening: string } {
  const row = db.select({ story: lifeStory.story, published: lifeStory.published }).from(lifeStory).where(eq(lifeStory.id, 1)).get();
  return row?.published ? { lifeStory: true, storyOpening: firstSentence(row.story) } : { lifeStory: false, storyOpening: "" };
}

/** The object of GET /api/life and GET /api/admin/life (the admin's adds `published` and the page's photo). */
export interface LifeApiView {
  name: string;
  born: { date: string; place: string };
  died: { date: string; place: string };
  story: string;
  photoId: number | null;
  timeline: { date: string; title: string; text: string; photoId: number | null }[];
  published?: boolean;
  /** The admin's: the story in the site's other languages, and those it is missing in. */
  translations?: StoryTranslations;
  missingTranslations?: Partial<Record<Language, ["story"]>>;
}

function apiPerson() {
  const site = getSiteSettings();
  return {
    name: site.personName,
    born: { date: site.birthDate, place: site.birthPlace },
    died: { date: site.deathDate, place: site.deathPlace },
  };
}

const apiMoment = ({ date, title, text, photoId }: MomentView) => ({ date, title, text, photoId });

/** What visitors' API reads: null until published. */
export function publicLifeApi(): LifeApiView | null {
  const life = getPublishedLife();
  if (!life) return null;
  return { ...apiPerson(), story: life.story, photoId: life.photo?.id ?? null, timeline: life.moments.map(apiMoment) };
}

export function adminLifeApi(): LifeApiView {
  const life = getAdminLife();
  return {
    ...apiPerson(),
    story: life.story,
    photoId: life.photoId,
    timeline: life.moments.map(apiMoment),
    published: life.published,
    translations: getStoryTranslations(),
    missingTranslations: Object.fromEntries(missingStories(life.story).map((language) => [language, ["story"] as ["story"]])),
  };
}

export type LifeUpdate = { ok: true } | { ok: false; errors: FieldErrors };

/**
 * PUT /api/admin/life: the name, dates and places (the Site tab's settings,
 * under the same rules), the story, the timeline (replaced whole) and
 * whether it is published, all in one commit or none of it.
 */
export async function putLife(input: LifeApiInput, by: Actor, translations: StoryTranslationsPatch = {}): Promise<LifeUpdate> {
  const patch: SettingsPatch = {
    personName: input.name,
    birthDate: input.born?.date,
    birthPlace: input.born?.place,
    deathDate: input.died?.date,
    deathPlace: input.died?.place,
  };
  const change = await prepareSettingsChange(patch);
  if (!change.ok) {
    const renamed: Record<string, string> = {
      personName: "name",
      birthDate: "born",
      birthPlace: "born",
      deathDate: "died",
      deathPlace: "died",
    };
    return {
      ok: false,
      errors: Object.fromEntries(Object.entries(change.errors).map(([key, messages]) => [renamed[key] ?? key, messages])),
    };
  }
  by.commit((tx) => {
    change.write(tx, by.username);
    writeStoryTranslations(tx, translations, by.username);
    writeStoryTranslations(tx, translations, by.username);
    if (input.photoId !== undefined) checkPhoto(tx, input.photoId);
    input.timeline?.forEach((moment) => checkPhoto(tx, moment.photoId, "timeline"));
    writeStory(
      tx,
      Object.fromEntries(
        Object.entries({ story: input.story, photoId: input.photoId, published: input.published }).filter(
          ([, value]) => value !== undefined && value !== "keep",
        ),
      ),
      by.username,
    );
    if (input.timeline) {
      tx.delete(lifeMoments).run();
      if (input.timeline.length > 0) tx.insert(lifeMoments).values(input.timeline.map(momentValues)).run();
    }
  });
  return { ok: true };
}
