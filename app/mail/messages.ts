// The e-mails the site sends, as plain text and HTML, from the data given
// (app/mail knows no rules: the models decide who gets what, and when).
// Readable on a phone: one column, large type, buttons big enough to tap.
// No remote images and no tracking: the only pictures are the summary's
// thumbnails, attached to the message itself (cid:).

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
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
/** A subject is one line: no line breaks from a name, and not endless. */
const oneLine = (text: string, max = 80) => {
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

/** A visitor's text as paragraphs (split at empty lines), each with its own line breaks. */
const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

type Block =
  | { kind: "p"; text: string }
  | { kind: "quote"; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "heading"; text: string }
  | { kind: "button"; text: string; href: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "pictures"; items: { cid: string | null; label: string; href: string }[] };

const FONT = "font-family:Georgia,'Times New Roman',serif;font-size:18px;line-height:1.6;color:#2b2520";

function htmlOf(block: Block): string {
  switch (block.kind) {
    case "p":
      return `<p style="margin:0 0 16px">${escapeHtml(block.text)}</p>`;
    case "quote":
      // Paragraphs and line breaks as elements: many mail programs ignore white-space: pre-wrap.
      return `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #c9b8a6;background:#fffdf9">${paragraphsOf(
        block.text,
      )
        .map((paragraph) => `<p style="margin:0 0 8px">${paragraph.split("\n").map(escapeHtml).join("<br>")}</p>`)
        .join("")}</blockquote>`;
    case "list":
      return `<ul style="margin:0 0 16px;padding-left:24px">${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
    case "heading":
      return `<h2 style="margin:24px 0 8px;font-size:20px;line-height:1.3">${escapeHtml(block.text)}</h2>`;
    case "button":
      return `<p style="margin:0 0 16px"><a href="${escapeHtml(block.href)}" style="display:inline-block;padding:12px 20px;background:#7a4b2a;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">${escapeHtml(block.text)}</a></p>`;
    case "link":
      return `<p style="margin:0 0 16px"><a href="${escapeHtml(block.href)}" style="color:#7a4b2a">${escapeHtml(block.text)}</a></p>`;
    case "pictures":
      return `<p style="margin:0 0 16px">${block.items
        .map(
          (item) =>
            `<a href="${escapeHtml(item.href)}" style="display:inline-block;margin:0 8px 8px 0;color:#7a4b2a;text-decoration:none;vertical-align:top;width:140px">${
              item.cid
                ? `<img src="cid:${escapeHtml(item.cid)}" alt="" width="140" style="display:block;width:140px;max-width:100%;height:auto;border-radius:4px;border:0">`
                : ""
            }<span style="display:block;font-size:15px;line-height:1.4;word-wrap:break-word">${escapeHtml(item.label)}</span></a>`,
        )
        .join("")}</p>`;
  }
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

function compose(frame: MailFrame, subject: string, blocks: Block[]): MailContent {
  const footer = [
    `You get this e-mail from ${frame.siteTitle} because ${frame.reason}.`,
    ...(frame.settingsUrl ? [`Choose what you get: ${frame.settingsUrl}`] : []),
    `Stop these e-mails: ${frame.unsubscribeUrl}`,
  ];
  const text = [...blocks.map(textOf), "--", ...footer].join("\n\n") + "\n";
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f6f1ea">
<div style="max-width:600px;margin:0 auto;padding:24px 16px;${FONT}">
<p style="margin:0 0 8px;font-size:15px;color:#6b5f55">${escapeHtml(frame.siteTitle)}</p>
${blocks.map(htmlOf).join("\n")}
<hr style="border:0;border-top:1px solid #e4dcd3;margin:24px 0">
<p style="margin:0 0 8px;font-size:15px;color:#6b5f55">${escapeHtml(footer[0]!)}</p>
${frame.settingsUrl ? `<p style="margin:0 0 8px;font-size:15px"><a href="${escapeHtml(frame.settingsUrl)}" style="color:#7a4b2a">Choose what you get</a></p>` : ""}
<p style="margin:0;font-size:15px"><a href="${escapeHtml(frame.unsubscribeUrl)}" style="color:#7a4b2a">Stop these e-mails</a></p>
</div></body></html>
`;
  return { subject: oneLine(subject, 120), text, html };
}

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
  upload: { sender: string; files: { type: "IMAGE" | "VIDEO"; originalName: string }[]; tabUrl: string },
): MailContent {
  const { files } = upload;
  const photos = files.filter((file) => file.type === "IMAGE").length;
  const videos = files.length - photos;
  const what =
    files.length === 1
      ? files[0]!.type === "VIDEO"
        ? "a video"
        : "a photo"
      : videos === 0
        ? `${files.length} photos`
        : photos === 0
          ? `${files.length} videos`
          : plural(files.length, "photo or video", "photos and videos");
  const subject = `${oneLine(frame.personName, 60)}: ${oneLine(upload.sender, 50)} shared ${what}`;
  if (files.length === 1) {
    return compose(frame, subject, [
      { kind: "p", text: `${upload.sender} shared ${what} (${files[0]!.originalName}). It waits for you before it is in the gallery.` },
      { kind: "p", text: "If they share more, it will wait there too." },
      { kind: "button", text: "See what waits in Pending Uploads", href: upload.tabUrl },
    ]);
  }
  return compose(frame, subject, [
    { kind: "p", text: `${upload.sender} shared ${what}. They wait for you before they are in the gallery:` },
    { kind: "list", items: files.map((file) => file.originalName) },
    { kind: "button", text: "See what waits in Pending Uploads", href: upload.tabUrl },
  ]);
}

export interface SummaryItems {
  memories: { name: string; opening: string; url: string }[];
  /** How many more memories wait than are shown. */
  moreMemories: number;
  uploads: { label: string; url: string; cid: string | null }[];
  /** How many more photos and videos wait than are shown. */
  moreUploads: number;
  rsvps: { name: string; guestCount: number; notes: string | null }[];
  tabs: { memories: string; uploads: string; attendance: string };
}

/** The subject's count: "2 memories and 3 photos and videos wait for you, and 1 new RSVP". */
function summaryCount(items: SummaryItems) {
  const uploads = items.uploads.length + items.moreUploads;
  const memories = items.memories.length + items.moreMemories;
  const parts = [
    memories ? plural(memories, "memory", "memories") : "",
    uploads ? plural(uploads, "photo or video", "photos and videos") : "",
  ].filter(Boolean);
  const waiting = parts.length ? `${parts.join(" and ")} ${memories + uploads === 1 ? "waits" : "wait"} for you` : "";
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
    blocks.push({ kind: "heading", text: `Photos and videos waiting (${uploads})` });
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
  return compose(frame, `Your memory of ${oneLine(frame.personName, 60)} is now on the memorial`, [
    { kind: "p", text: `Dear ${memory.name},` },
    {
      kind: "p",
      text: memory.shownPublicly
        ? "The family has read your memory and added it to the guest book. Thank you for sharing it."
        : "The family has read your memory and kept it with the others, shared with the family only, as you asked. Thank you for sharing it.",
    },
    ...(memory.shownPublicly ? [{ kind: "button" as const, text: "See the guest book", href: memory.url }] : []),
  ]);
}

/** To a visitor who asked: the family has published their photos or videos. */
export function uploadsPublishedMail(frame: MailFrame, upload: { name: string; url: string }): MailContent {
  return compose(frame, `Your photos and videos of ${oneLine(frame.personName, 60)} are now in the gallery`, [
    { kind: "p", text: `Dear ${upload.name},` },
    { kind: "p", text: "The family has added what you shared to the gallery. Thank you for sharing it." },
    { kind: "button", text: "See the gallery", href: upload.url },
  ]);
}
