import { parsePartialDate, PARTIAL_DATE_RULE } from "~/site/life-dates";
import { SettingsFields } from "~/site/settings.schema";
import { z } from "~/utils/zod";

// Client-safe: the life story's rules, for the Life Story tab's forms (in the
// browser too) and for PUT /api/admin/life.

const STORY_MAX = 30_000;
export const MOMENTS_MAX = 100;
const MOMENT_TITLE_MAX = 200;
const MOMENT_TEXT_MAX = 1_000;
const ANSWER_MAX = 2_000;

/**
 * A published gallery photo's id, or none: a form's empty choice is none,
 * and its "keep" (the photo chosen before, no longer among those offered)
 * leaves the photo as it is.
 */
const photoId = z.preprocess(
  (value) => (value === "" ? null : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
  z.union([z.literal("keep"), z.number().int().positive().nullable()], { message: "Choose a photo from the gallery" }),
);

/** A browser sends a text box's line breaks as CRLF: one character each, before any length is counted. */
const oneCharacterBreaks = (value: string) => value.replace(/\r\n?/g, "\n");

const storyText = z
  .string()
  .overwrite(oneCharacterBreaks)
  .trim()
  .max(STORY_MAX, `The life story must be at most ${STORY_MAX.toLocaleString("en-US")} characters`);

export const StoryInput = z.object({ story: storyText.default(""), photoId: photoId.default(null) });
export type StoryInput = z.infer<typeof StoryInput>;

export const MomentInput = z.object({
  date: z
    .string({ message: "Date is required" })
    .trim()
    .min(1, { message: "Date is required", abort: true })
    .refine((value) => parsePartialDate(value) !== null, { message: `Date ${PARTIAL_DATE_RULE}` }),
  title: z
    .string({ message: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(MOMENT_TITLE_MAX, `Title must be at most ${MOMENT_TITLE_MAX} characters`),
  text: z
    .string()
    .overwrite(oneCharacterBreaks)
    .trim()
    .max(MOMENT_TEXT_MAX, `Text must be at most ${MOMENT_TEXT_MAX.toLocaleString("en-US")} characters`)
    .default(""),
  photoId: photoId.default(null),
});
export type MomentInput = z.infer<typeof MomentInput>;

/** The guided questions, in the order the draft tells them. */
export const QUESTIONS = [
  { name: "family", label: "Family", hint: "Parents, brothers and sisters, a husband or wife, children, grandchildren." },
  { name: "work", label: "Work", hint: "What they did, where, and what it meant to them." },
  { name: "loved", label: "What they loved", hint: "Places, people, music, gardens, teams, the small things." },
  { name: "remembered", label: "What they would want remembered", hint: "In their words or yours." },
  { name: "survivedBy", label: "Who survives them", hint: "For example: their wife Mary; their children Ann and Tom." },
  { name: "inLieuOfFlowers", label: "In lieu of flowers", hint: "A charity or cause, if the family asks for one." },
] as const;
export type QuestionName = (typeof QUESTIONS)[number]["name"];

const answer = (label: string) =>
  z
    .string()
    .overwrite(oneCharacterBreaks)
    .trim()
    .max(ANSWER_MAX, `${label} must be at most ${ANSWER_MAX.toLocaleString("en-US")} characters`)
    .default("");

export const AnswersInput = z.object(
  Object.fromEntries(QUESTIONS.map((question) => [question.name, answer(question.label)])) as Record<
    QuestionName,
    ReturnType<typeof answer>
  >,
);
export type Answers = z.infer<typeof AnswersInput>;

/** The guided questions' form: where and when they were born and died (the Site tab's settings), then the questions. */
export const DraftInput = SettingsFields.pick({ birthDate: true, birthPlace: true, deathDate: true, deathPlace: true }).extend(
  AnswersInput.shape,
);
export type DraftInput = z.infer<typeof DraftInput>;

const fields = SettingsFields.shape;
const end = (date: typeof fields.birthDate, place: typeof fields.birthPlace) =>
  z.object({ date: date.optional(), place: place.optional() }, { message: "Must be an object with date and place" }).strict();

/**
 * PUT /api/admin/life: the object GET answers. Every field may be left out
 * (it stays as it is); `timeline`, when given, replaces the whole timeline.
 */
export const LifeApiInput = z
  .object({
    name: fields.personName.optional(),
    born: end(fields.birthDate, fields.birthPlace).optional(),
    died: end(fields.deathDate, fields.deathPlace).optional(),
    story: storyText.optional(),
    photoId: photoId.optional(),
    timeline: z.array(MomentInput).max(MOMENTS_MAX, `The timeline can have at most ${MOMENTS_MAX} moments`).optional(),
    published: z.boolean({ message: "Published must be true or false" }).optional(),
  })
  .strict();
export type LifeApiInput = z.infer<typeof LifeApiInput>;

/** One dated moment as pages and the API show it. */
export interface MomentView {
  id: number;
  date: string;
  title: string;
  text: string;
  photoId: number | null;
}

/** A published photo as the life story shows it. */
export interface LifePhoto {
  id: number;
  url: string;
  thumbnailUrl: string;
  width: number | null;
  height: number | null;
}

/** A photo the family may choose, named for a screen reader as the gallery names it, with its file's name. */
export interface ChoosablePhoto extends LifePhoto {
  label: string;
}

export const STORY_SAVED = { title: "Life Story Saved", description: "Your changes are saved." } as const;
export const STORY_PUBLISHED = { title: "Life Story Published", description: "Visitors can now read the life story." } as const;
export const STORY_UNPUBLISHED = { title: "Life Story Unpublished", description: "Visitors no longer see the life story." } as const;
export const MOMENT_ADDED = { title: "Moment Added", description: "The moment is on the timeline." } as const;
export const MOMENT_SAVED = { title: "Moment Saved", description: "The moment is changed." } as const;
export const MOMENT_DELETED = { title: "Moment Deleted", description: "The moment is off the timeline." } as const;
export const DRAFT_WRITTEN = {
  title: "First Draft Written",
  description: "Your answers are in the life story below: edit it, then save.",
} as const;
export const LIFE_PHOTO_ACTION = "/admin/life/photo";
export const LIFE_PHOTO_SECTION = "life-photo";
export const LIFE_PHOTO_SAVED = { title: "Photo Saved", description: "The life story's page shows the new photo." } as const;
export const LIFE_PHOTO_REMOVED = {
  title: "Photo Removed",
  description: "The uploaded photo is no longer on the life story's page.",
} as const;
export const TIMELINE_FULL = `The timeline can have at most ${MOMENTS_MAX} moments`;
