import { formatDuration } from "~/utils/time";
import type { BookVoice } from "./content.server";
import type { ChapterTools } from "./life-chapter.server";

// The memory book's voices, after the guest book's memories: a page can hold
// no sound, so each voice is its sender's name, the day, the length and the
// line, with a QR code beside them that opens it on the memorial website.
// Only voices shared with permission are printed (content.server.ts).

/** The QR code's side: an inch, which a phone's camera reads from a print. */
const QR_SIZE = 72;
const GAP = 14;

export interface VoiceChapter {
  voices: Iterable<BookVoice>;
  /** The site's public address, for each voice's page. */
  origin: string;
  /** A day as the book writes it, in its language and the family's time zone. */
  longDate: (date: Date) => string;
  drawQr: (text: string, x: number, y: number, size: number) => void;
  signal: AbortSignal | undefined;
  /** Called after each voice: counts it and waits for the file to catch up. */
  placed: () => Promise<void>;
}

/** `<origin>/voices/<id>`: the voice's own page, where it plays. */
export const voiceAddress = (origin: string, id: number) => `${origin.replace(/\/+$/, "")}/voices/${id}`;

/** The chapter "Voices", on a new page; nothing when no voice is published with permission. */
export async function layOutVoices({ doc, say, keep, left, t }: ChapterTools, chapter: VoiceChapter) {
  const textX = left + QR_SIZE + GAP;
  const { width, margins } = doc.page;
  const textWidth = width - margins.left - margins.right - QR_SIZE - GAP;
  let first = true;
  for (const voice of chapter.voices) {
    chapter.signal?.throwIfAborted();
    if (first) {
      doc.addPage();
      say(t("book.voices.title"), "bold", 20);
      doc.moveDown(0.3);
      say(t("book.voices.intro"), "italic", 10);
      doc.moveDown(0.9);
      first = false;
    }
    const link = voiceAddress(chapter.origin, voice.id);
    const about = [chapter.longDate(voice.createdAt), voice.durationSec === null ? null : formatDuration(voice.durationSec)]
      .filter(Boolean)
      .join(" · ");
    // The text's height as laid out, with a line to spare for letters from the CJK font.
    doc.font("regular").fontSize(11);
    const lineHeight = voice.caption ? doc.heightOfString(voice.caption, { width: textWidth, lineGap: 2 }) + 16 : 0;
    doc.fontSize(9);
    const textHeight = 18 + 14 + lineHeight + doc.heightOfString(t("book.voices.listen", { link }), { width: textWidth }) + 4;
    keep(Math.max(QR_SIZE, textHeight) + GAP);

    const top = doc.y;
    chapter.drawQr(link, left, top, QR_SIZE);
    doc.x = textX;
    doc.y = top;
    say(voice.sender, "bold", 12, { width: textWidth });
    say(about, "italic", 9, { width: textWidth, lineGap: 2 });
    if (voice.caption) say(voice.caption, "regular", 11, { width: textWidth, lineGap: 2 });
    doc.fillColor("#444444");
    say(t("book.voices.listen", { link }), "regular", 9, { width: textWidth });
    doc.fillColor("#1a1a1a");
    doc.x = left;
    doc.y = Math.max(doc.y, top + QR_SIZE) + GAP;
    await chapter.placed();
  }
}
