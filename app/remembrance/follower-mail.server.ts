import type { FollowTopic } from "../../db/schema";
import { compose, firstLines, oneLine, type MailContent, type MailFrame } from "~/mail/messages";
import type { Block } from "~/mail/message-html.server";
import { TOPIC_LABELS } from "./follow.constants";
import type { YearlyKind } from "./yearly-days.server";

// The e-mails to people who follow the memorial: the confirmation of a
// request, news of the service, the weekly digest and the yearly reminders.
// Each says whose memorial it is from, why it was sent and how to stop
// (compose's frame). The words are plain and gentle: these arrive on hard days.

const wordsBlock = (words: string): Block[] => (words.trim() ? [{ kind: "quote", text: words.trim() }] : []);

/** To an address someone gave in the form: the only e-mail it gets until the link is opened. */
export function confirmationMail(frame: MailFrame, follow: { name: string; topics: FollowTopic[]; confirmUrl: string }): MailContent {
  return compose(frame, `Please confirm: e-mail from the memorial of ${oneLine(frame.personName, 60)}`, [
    { kind: "p", text: `Dear ${follow.name},` },
    { kind: "p", text: `You asked to hear from the memorial of ${frame.personName} about:` },
    { kind: "list", items: follow.topics.map((topic) => TOPIC_LABELS[topic]) },
    { kind: "p", text: "To start, open this link. Until you do, nothing more will be sent to this address." },
    { kind: "button", text: "Yes, keep me posted", href: follow.confirmUrl },
    { kind: "p", text: "If you did not ask for this, do nothing: you will not hear from the memorial again." },
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

/** To followers of the service: the family changed its date, time, place or livestream link. */
export function serviceChangedMail(frame: MailFrame, service: ServiceDetails, changed: string[]): MailContent {
  return compose(frame, `${oneLine(frame.personName, 60)}: the ${oneLine(service.title, 60)} has changed`, [
    { kind: "p", text: `The family has changed the ${changed.join(", ")} of the ${service.title}. This is how it stands now:` },
    {
      kind: "list",
      items: [
        `When: ${service.when}`,
        `Where: ${service.venue}, ${service.address}`,
        ...(service.livestreamUrl ? [`Livestream: ${service.livestreamUrl}`] : []),
      ],
    },
    { kind: "button", text: "See the service details", href: service.pageUrl },
  ]);
}

/** To followers of the service, the day after it: where the memories are. */
export function afterServiceMail(frame: MailFrame, service: { title: string; memoriesUrl: string; shareUrl: string }): MailContent {
  return compose(frame, `${oneLine(frame.personName, 60)}: thank you for remembering with us`, [
    { kind: "p", text: `Thank you for being with us, at the ${service.title} or from afar.` },
    {
      kind: "p",
      text: `The memorial stays open. Memories, photos and videos of ${frame.personName} are gathered there, and yours are welcome too.`,
    },
    { kind: "button", text: "Read the memories", href: service.memoriesUrl },
    { kind: "link", text: "Share a photo or video", href: service.shareUrl },
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

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** To followers of what is new: one e-mail a week at most, of what the family published since the last. */
export function digestMail(frame: MailFrame, items: DigestItems): MailContent {
  const memories = items.memories.length + items.moreMemories;
  const pictures = [items.photos ? count(items.photos, "photo", "photos") : "", items.videos ? count(items.videos, "video", "videos") : ""]
    .filter(Boolean)
    .join(" and ");
  const what = [memories ? count(memories, "new memory", "new memories") : "", pictures ? `${pictures} added` : ""]
    .filter(Boolean)
    .join(", ");
  const blocks: Block[] = [{ kind: "p", text: `This week on the memorial of ${frame.personName}: ${what}.` }];
  for (const memory of items.memories) blocks.push({ kind: "p", text: `${memory.name} wrote:` }, { kind: "quote", text: memory.opening });
  if (items.moreMemories) blocks.push({ kind: "p", text: `And ${count(items.moreMemories, "more memory", "more memories")}.` });
  if (memories) blocks.push({ kind: "button", text: "Read the memories", href: items.memoriesUrl });
  if (pictures) blocks.push({ kind: memories ? "link" : "button", text: "See the gallery", href: items.galleryUrl });
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
function dayName(reminder: ReminderDetails, person: string): string {
  switch (reminder.kind) {
    case "birthday":
      return `the birthday of ${person}, who would have been ${reminder.years}`;
    case "anniversary":
      return `the ${ordinal(reminder.years)} anniversary of the death of ${person}`;
    case "yahrzeit":
      return `the yahrzeit of ${person} (${reminder.hebrewDate ?? "by the Hebrew calendar"})`;
  }
}

const SUBJECT_DAY: Record<YearlyKind, string> = { birthday: "birthday", anniversary: "anniversary", yahrzeit: "yahrzeit" };

/** To followers of the yearly days: a day the family remembers is near, or today. */
export function reminderMail(frame: MailFrame, reminder: ReminderDetails): MailContent {
  const person = frame.personName;
  const when =
    reminder.inDays === 0
      ? "Today"
      : reminder.inDays === 1
        ? `Tomorrow, ${reminder.dateText},`
        : `On ${reminder.dateText}, in ${reminder.inDays} days,`;
  const is = reminder.inDays === 0 ? `Today, ${reminder.dateText}, is` : `${when} is`;
  const subject =
    reminder.inDays === 0
      ? `Remembering ${oneLine(person, 60)} today, on the ${SUBJECT_DAY[reminder.kind]}`
      : `Remembering ${oneLine(person, 60)}: the ${SUBJECT_DAY[reminder.kind]} is on ${reminder.dateText}`;
  return compose(frame, subject, [
    { kind: "p", text: `${is} ${dayName(reminder, person)}.` },
    ...(reminder.kind === "yahrzeit" ? [{ kind: "p" as const, text: "The yahrzeit begins at sunset the evening before." }] : []),
    ...wordsBlock(reminder.words),
    { kind: "button", text: "Visit the memorial", href: reminder.siteUrl },
  ]);
}

/** The opening of a memory for the digest. */
export const memoryOpening = (message: string) => firstLines(message, 2, 200);
