import type { FollowTopic } from "../../db/schema";
import { compose, firstLines, mailWords, oneLine, type MailContent, type MailFrame } from "~/mail/messages";
import type { Block } from "~/mail/message-html.server";
import type { YearlyKind } from "./yearly-days.server";

// The e-mails to people who follow the memorial: the confirmation of a
// request, news of the service, the weekly digest and the yearly reminders,
// each in the language the follower asked in (the frame's).
// Each says whose memorial it is from, why it was sent and how to stop
// (compose's frame). The words are plain and gentle: these arrive on hard days.

const wordsBlock = (words: string): Block[] => (words.trim() ? [{ kind: "quote", text: words.trim() }] : []);

/** To an address someone gave in the form: the only e-mail it gets until the link is opened. */
export function confirmationMail(frame: MailFrame, follow: { name: string; topics: FollowTopic[]; confirmUrl: string }): MailContent {
  const t = mailWords(frame);
  return compose(frame, t("mail.confirm.subject", { person: oneLine(frame.personName, 60) }), [
    { kind: "p", text: t("mail.dear", { name: follow.name }) },
    { kind: "p", text: t("mail.confirm.asked", { person: frame.personName }) },
    { kind: "list", items: follow.topics.map((topic) => t(`mail.confirm.topics.${topic}`)) },
    { kind: "p", text: t("mail.confirm.start") },
    { kind: "button", text: t("mail.confirm.button"), href: follow.confirmUrl },
    { kind: "p", text: t("mail.confirm.ignore") },
  ]);
}

export interface ServiceDetails {
  title: string;
  when: string;
  venue: string;
  address: string;
  livestreamUrl: string;
  pageUrl: string;
}

/** What changed in the service: "date and time", "place", "livestream link". */
export type ServiceChange = "dateTime" | "place" | "livestream";

/** To followers of the service: the family changed its date, time, place or livestream link. */
export function serviceChangedMail(frame: MailFrame, service: ServiceDetails, changed: ServiceChange[]): MailContent {
  const t = mailWords(frame);
  const changes = changed.map((change) => t(`mail.serviceChanged.${change}`)).join(", ");
  return compose(frame, t("mail.serviceChanged.subject", { person: oneLine(frame.personName, 60), title: oneLine(service.title, 60) }), [
    { kind: "p", text: t("mail.serviceChanged.body", { changes, title: service.title }) },
    {
      kind: "list",
      items: [
        t("mail.serviceChanged.when", { when: service.when }),
        t("mail.serviceChanged.where", { venue: service.venue, address: service.address }),
        ...(service.livestreamUrl ? [t("mail.serviceChanged.livestreamUrl", { url: service.livestreamUrl })] : []),
      ],
    },
    { kind: "button", text: t("mail.serviceChanged.button"), href: service.pageUrl },
  ]);
}

/** To followers of the service, the day after it: where the memories are. */
export function afterServiceMail(frame: MailFrame, service: { title: string; memoriesUrl: string; shareUrl: string }): MailContent {
  const t = mailWords(frame);
  return compose(frame, t("mail.afterService.subject", { person: oneLine(frame.personName, 60) }), [
    { kind: "p", text: t("mail.afterService.thanks", { title: service.title }) },
    { kind: "p", text: t("mail.afterService.open", { person: frame.personName }) },
    { kind: "button", text: t("mail.afterService.button"), href: service.memoriesUrl },
    { kind: "link", text: t("mail.afterService.share"), href: service.shareUrl },
  ]);
}

export interface DigestItems {
  memories: { name: string; opening: string }[];
  moreMemories: number;
  photos: number;
  videos: number;
  memoriesUrl: string;
  galleryUrl: string;
}

/** To followers of what is new: one e-mail a week at most, of what the family published since the last. */
export function digestMail(frame: MailFrame, items: DigestItems): MailContent {
  const t = mailWords(frame);
  const memories = items.memories.length + items.moreMemories;
  const photos = items.photos ? t("mail.digest.photos", { count: items.photos }) : "";
  const videos = items.videos ? t("mail.digest.videos", { count: items.videos }) : "";
  const pictures = photos && videos ? t("mail.digest.both", { photos, videos }) : photos || videos;
  const what = [memories ? t("mail.digest.memories", { count: memories }) : "", pictures ? t("mail.digest.added", { pictures }) : ""]
    .filter(Boolean)
    .join(", ");
  const blocks: Block[] = [{ kind: "p", text: t("mail.digest.intro", { person: frame.personName, what }) }];
  for (const memory of items.memories)
    blocks.push({ kind: "p", text: t("mail.digest.wrote", { name: memory.name }) }, { kind: "quote", text: memory.opening });
  if (items.moreMemories) blocks.push({ kind: "p", text: t("mail.digest.more", { count: items.moreMemories }) });
  if (memories) blocks.push({ kind: "button", text: t("mail.digest.readMemories"), href: items.memoriesUrl });
  if (pictures) blocks.push({ kind: memories ? "link" : "button", text: t("mail.digest.seeGallery"), href: items.galleryUrl });
  return compose(frame, `${oneLine(frame.personName, 60)}: ${what}`, blocks);
}

export interface ReminderDetails {
  kind: YearlyKind;
  /** "Saturday, March 14, 2027". */
  dateText: string;
  /** 0: today. */
  inDays: number;
  years: number;
  hebrewDate?: string;
  words: string;
  siteUrl: string;
}

export const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
};

/** What the day is, in a sentence's middle: "the 85th birthday of Ann Lee". */
function dayName(t: ReturnType<typeof mailWords>, reminder: ReminderDetails, person: string): string {
  switch (reminder.kind) {
    case "birthday":
      return t("mail.reminder.birthday", { person, years: reminder.years });
    case "anniversary":
      return t("mail.reminder.anniversary", { person, years: reminder.years });
    case "yahrzeit":
      return reminder.hebrewDate
        ? t("mail.reminder.yahrzeit", { person, hebrewDate: reminder.hebrewDate })
        : t("mail.reminder.yahrzeitUndated", { person });
  }
}

/** To followers of the yearly days: a day the family remembers is near, or today. */
export function reminderMail(frame: MailFrame, reminder: ReminderDetails): MailContent {
  const t = mailWords(frame);
  const person = frame.personName;
  const day = dayName(t, reminder, person);
  const date = reminder.dateText;
  const sentence =
    reminder.inDays === 0
      ? t("mail.reminder.today", { date, day })
      : reminder.inDays === 1
        ? t("mail.reminder.tomorrow", { date, day })
        : t("mail.reminder.inDays", { date, days: reminder.inDays, day });
  const kind = reminder.kind;
  const subject =
    reminder.inDays === 0
      ? t("mail.reminder.subjectToday", { person: oneLine(person, 60), kind })
      : t("mail.reminder.subjectAhead", { person: oneLine(person, 60), kind, date });
  return compose(frame, subject, [
    { kind: "p", text: sentence },
    ...(reminder.kind === "yahrzeit" ? [{ kind: "p" as const, text: t("mail.reminder.sunset") }] : []),
    ...wordsBlock(reminder.words),
    { kind: "button", text: t("mail.reminder.button"), href: reminder.siteUrl },
  ]);
}

/** The opening of a memory for the digest. */
export const memoryOpening = (message: string) => firstLines(message, 2, 200);
