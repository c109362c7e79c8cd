// The e-mails the site sends, as plain text and HTML, from the data given
// (app/mail knows no rules: the models decide who gets what, and when).
// Readable on a phone: one column, large type, buttons big enough to tap.
// No remote images and no tracking: the only pictures are the summary's
// thumbnails, attached to the message itself (cid:). The HTML part is JSX
// (message-html.server.tsx).

import type { MediaType } from "../../db/schema";
import { translate, type Translate } from "~/i18n/i18n.server";
import { DEFAULT_LANGUAGE, type Language } from "~/i18n/languages";
import { mailHtml, paragraphsOf, type Block } from "./message-html.server";

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** What every e-mail says around its own words: whose memorial, and how to stop them. */
export interface MailFrame {
  /** The person the memorial is for, in every subject. */
  personName: string;
  siteTitle: string;
  /** Why this address gets it ("you chose an e-mail for each new memory…"). */
  reason: string;
  /** Where the recipient stops these e-mails, without logging in. */
  unsubscribeUrl: string;
  /** For an admin: where they change what they get. */
  settingsUrl?: string;
  /** The language of a visitor's e-mail (the one they wrote, followed or shared in); the family's own alerts stay English. */
  language?: Language;
}

/** The words of a visitor's e-mail, in the language of its frame. */
export const mailWords = (frame: Pick<MailFrame, "language">): Translate => translate(frame.language ?? DEFAULT_LANGUAGE);

/** A subject is one line: no line breaks from a name, and not endless. */
export const oneLine = (text: string, max = 80) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The opening of a message: its first `lines` lines that hold words, at most
 * `chars` characters, with a paragraph break (one empty line) kept where the
 * writer left one.
 */
export function firstLines(message: string, lines = 3, chars = 280): string {
  const kept: string[] = [];
  let more = false;
  for (const line of message.split("\n")) {
    if (!line.trim()) {
      if (kept.length > 0 && kept.at(-1) !== "") kept.push("");
    } else if (kept.filter(Boolean).length === lines) {
      more = true;
      break;
    } else {
      kept.push(line);
    }
  }
  const opening = (kept.at(-1) === "" ? kept.slice(0, -1) : kept).join("\n");
  const cut = opening.length > chars ? `${opening.slice(0, chars - 1).trimEnd()}…` : opening;
  return more && !cut.endsWith("…") ? `${cut} …` : cut;
}

function textOf(block: Block): string {
  switch (block.kind) {
    case "p":
      return block.text;
    case "quote":
      return paragraphsOf(block.text)
        .map((paragraph) =>
          paragraph
            .split("\n")
            .map((line) => `> ${line}`)
            .join("\n"),
        )
        .join("\n>\n");
    case "list":
      return block.items.map((item) => `- ${item}`).join("\n");
    case "heading":
      return `${block.text}\n${"-".repeat(Math.min(block.text.length, 60))}`;
    case "button":
    case "link":
      return `${block.text}: ${block.href}`;
    case "pictures":
      return block.items.map((item) => `- ${item.label}: ${item.href}`).join("\n");
  }
}

/** A message in the frame every e-mail has: its blocks, then why it was sent and how to stop. */
export function compose(frame: MailFrame, subject: string, blocks: Block[]): MailContent {
  const t = mailWords(frame);
  const stop = t("mail.footer.stop");
  const footer = [
    t("mail.footer.why", { siteTitle: frame.siteTitle, reason: frame.reason }),
    ...(frame.settingsUrl ? [`Choose what you get: ${frame.settingsUrl}`] : []),
    `${stop}: ${frame.unsubscribeUrl}`,
  ];
  const text = [...blocks.map(textOf), "--", ...footer].join("\n\n") + "\n";
  const html = mailHtml({
    subject,
    siteTitle: frame.siteTitle,
    blocks,
    why: footer[0]!,
    settingsUrl: frame.settingsUrl,
    unsubscribeUrl: frame.unsubscribeUrl,
    stop,
    language: frame.language ?? DEFAULT_LANGUAGE,
  });
  return { subject: oneLine(subject, 120), text, html };
}

const FILE_KINDS = {
  IMAGE: { one: "a photo", many: "photos" },
  VIDEO: { one: "a video", many: "videos" },
  AUDIO: { one: "a voice memory", many: "voice memories" },
} as const;

/** To an admin who chose an e-mail for each new item: a memory waits. */
export function newMemoryMail(
  frame: MailFrame,
  memory: { name: string; message: string; canDisplay: boolean; reviewUrl: string; tabUrl: string },
): MailContent {
  return compose(frame, `${oneLine(frame.personName, 60)}: a new memory from ${oneLine(memory.name, 50)} waits for you`, [
    { kind: "p", text: `${memory.name} wrote in the guest book:` },
    { kind: "quote", text: firstLines(memory.message) },
    ...(memory.canDisplay ? [] : [{ kind: "p" as const, text: "They asked for it to be shared with the family only." }]),
    { kind: "button", text: "Read it and publish it", href: memory.reviewUrl },
    { kind: "link", text: "Everything waiting in Pending Memories", href: memory.tabUrl },
  ]);
}

/** To an admin who chose an e-mail for each new item: photos or videos wait, every file the sender sent together named. */
export function newUploadMail(
  frame: MailFrame,
  upload: { sender: string; files: { type: MediaType; originalName: string }[]; tabUrl: string },
): MailContent {
  const { files } = upload;
  const kinds = new Set(files.map((file) => file.type));
  const what =
    files.length === 1
      ? FILE_KINDS[files[0]!.type].one
      : kinds.size === 1
        ? `${files.length} ${FILE_KINDS[files[0]!.type].many}`
        : kinds.has("AUDIO")
          ? `${files.length} files`
          : plural(files.length, "photo or video", "photos and videos");
  const subject = `${oneLine(frame.personName, 60)}: ${oneLine(upload.sender, 50)} shared ${what}`;
  if (files.length === 1) {
    return compose(frame, subject, [
      {
        kind: "p",
        text: `${upload.sender} shared ${what} (${files[0]!.originalName}). It waits for you before it is ${files[0]!.type === "AUDIO" ? "on the guest book" : "in the gallery"}.`,
      },
      { kind: "p", text: "If they share more, it will wait there too." },
      { kind: "button", text: "See what waits in Pending Uploads", href: upload.tabUrl },
    ]);
  }
  return compose(frame, subject, [
    { kind: "p", text: `${upload.sender} shared ${what}. They wait for you before visitors see or hear them:` },
    { kind: "list", items: files.map((file) => file.originalName) },
    { kind: "button", text: "See what waits in Pending Uploads", href: upload.tabUrl },
  ]);
}

export interface SummaryItems {
  memories: { name: string; opening: string; url: string }[];
  /** How many more memories wait than are shown. */
  moreMemories: number;
  uploads: { label: string; url: string; cid: string | null }[];
  /** How many more uploads wait than are shown. */
  moreUploads: number;
  /** How many of all the uploads waiting are voice memories. */
  voices: number;
  rsvps: { name: string; guestCount: number; notes: string | null }[];
  tabs: { memories: string; uploads: string; attendance: string };
}

/** "a", "a and b", "a, b and c". */
const listed = (parts: string[]) => (parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? ""));

/** The subject's count: "2 memories, 3 photos and videos and 1 voice memory wait for you, and 1 new RSVP". */
function summaryCount(items: SummaryItems) {
  const uploads = items.uploads.length + items.moreUploads;
  const pictures = uploads - items.voices;
  const memories = items.memories.length + items.moreMemories;
  const parts = [
    memories ? plural(memories, "memory", "memories") : "",
    pictures ? plural(pictures, "photo or video", "photos and videos") : "",
    items.voices ? plural(items.voices, "voice memory", "voice memories") : "",
  ].filter(Boolean);
  const waiting = parts.length ? `${listed(parts)} ${memories + uploads === 1 ? "waits" : "wait"} for you` : "";
  const rsvps = items.rsvps.length ? plural(items.rsvps.length, "new RSVP", "new RSVPs") : "";
  return waiting && rsvps ? `${waiting}, and ${rsvps}` : waiting || rsvps;
}

/** To an admin who chose one summary a day: everything waiting, and the RSVPs since the last. */
export function summaryMail(frame: MailFrame, items: SummaryItems): MailContent {
  const blocks: Block[] = [];
  const memories = items.memories.length + items.moreMemories;
  if (memories) {
    blocks.push({ kind: "heading", text: `Memories waiting (${memories})` });
    for (const memory of items.memories) {
      blocks.push(
        { kind: "p", text: memory.name },
        { kind: "quote", text: memory.opening },
        { kind: "link", text: `Read and publish the memory from ${memory.name}`, href: memory.url },
      );
    }
    if (items.moreMemories) blocks.push({ kind: "p", text: `And ${items.moreMemories} more in the panel.` });
    blocks.push({ kind: "button", text: "Open Pending Memories", href: items.tabs.memories });
  }
  const uploads = items.uploads.length + items.moreUploads;
  if (uploads) {
    const what = !items.voices ? "Photos and videos" : items.voices === uploads ? "Voice memories" : "Photos, videos and voice memories";
    blocks.push({ kind: "heading", text: `${what} waiting (${uploads})` });
    blocks.push({ kind: "pictures", items: items.uploads.map((upload) => ({ cid: upload.cid, label: upload.label, href: upload.url })) });
    if (items.moreUploads) blocks.push({ kind: "p", text: `And ${items.moreUploads} more in the panel.` });
    blocks.push({ kind: "button", text: "Open Pending Uploads", href: items.tabs.uploads });
  }
  if (items.rsvps.length) {
    blocks.push({ kind: "heading", text: `New RSVPs (${items.rsvps.length})` });
    for (const rsvp of items.rsvps) {
      blocks.push({
        kind: "p",
        text: `${rsvp.name}: ${plural(rsvp.guestCount, "guest", "guests")}${rsvp.notes ? `. “${oneLine(rsvp.notes, 200)}”` : ""}`,
      });
    }
    blocks.push({ kind: "button", text: "Open Attendance", href: items.tabs.attendance });
  }
  return compose(frame, `${oneLine(frame.personName, 60)}: ${summaryCount(items)}`, [
    { kind: "p", text: "Today's summary of what waits for you on the memorial." },
    ...blocks,
  ]);
}

/** To a visitor who asked: the family has published their memory. */
export function memoryPublishedMail(frame: MailFrame, memory: { name: string; shownPublicly: boolean; url: string }): MailContent {
  const t = mailWords(frame);
  return compose(frame, t("mail.memoryPublished.subject", { person: oneLine(frame.personName, 60) }), [
    { kind: "p", text: t("mail.dear", { name: memory.name }) },
    { kind: "p", text: t(memory.shownPublicly ? "mail.memoryPublished.shown" : "mail.memoryPublished.familyOnly") },
    ...(memory.shownPublicly ? [{ kind: "button" as const, text: t("mail.memoryPublished.button"), href: memory.url }] : []),
  ]);
}

/** A voice memory published: where it plays, or (shared with the family only) that they keep it. */
export function voicePublishedMail(frame: MailFrame, voice: { name: string; url: string | null }): MailContent {
  const t = mailWords(frame);
  const person = oneLine(frame.personName, 60);
  if (!voice.url) {
    return compose(frame, t("mail.voicePublished.keptSubject", { person }), [
      { kind: "p", text: t("mail.dear", { name: voice.name }) },
      { kind: "p", text: t("mail.voicePublished.kept") },
      { kind: "p", text: t("mail.thanksForSharing") },
    ]);
  }
  return compose(frame, t("mail.voicePublished.subject", { person }), [
    { kind: "p", text: t("mail.dear", { name: voice.name }) },
    { kind: "p", text: t("mail.voicePublished.added") },
    { kind: "button", text: t("mail.voicePublished.button"), href: voice.url },
  ]);
}

/** To a visitor who asked: the family has published their photos or videos. */
export function uploadsPublishedMail(frame: MailFrame, upload: { name: string; url: string }): MailContent {
  const t = mailWords(frame);
  return compose(frame, t("mail.uploadsPublished.subject", { person: oneLine(frame.personName, 60) }), [
    { kind: "p", text: t("mail.dear", { name: upload.name }) },
    { kind: "p", text: t("mail.uploadsPublished.added") },
    { kind: "button", text: t("mail.uploadsPublished.button"), href: upload.url },
  ]);
}
