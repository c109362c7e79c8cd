import fs from "node:fs/promises";

// Telling an MP3 from its bytes (never its name or declared type): an
// optional ID3v2 tag, then MPEG audio Layer III frames, two in a row.
// One frame header alone is four bytes that random data matches now and
// then; the second, exactly where the first says it ends, does not.

const ID3_HEADER_BYTES = 10;
/** Encoders may leave a little padding or junk between the tag and the first frame; not more than this. */
const FIRST_FRAME_WITHIN = 8 * 1024;
/** The longest Layer III frame (320 kbit/s at 32 kHz, padded) is 1,441 bytes: room for two. */
const WINDOW_BYTES = FIRST_FRAME_WITHIN + 4 * 1024;

/** The length of an ID3v2 tag starting `head` (its header, body and footer), or null when there is none. */
export function id3TagLength(head: Buffer): number | null {
  if (head.length < ID3_HEADER_BYTES || head.toString("latin1", 0, 3) !== "ID3") return null;
  const [major, revision, flags] = [head[3]!, head[4]!, head[5]!];
  if (major < 2 || major > 4 || revision === 0xff) return null;
  // The size is "syncsafe": four bytes of seven bits each.
  const sizeBytes = head.subarray(6, 10);
  if (sizeBytes.some((byte) => byte >= 0x80)) return null;
  const size = sizeBytes.reduce((total, byte) => total * 128 + byte, 0);
  const footer = major === 4 && flags & 0x10 ? ID3_HEADER_BYTES : 0;
  return ID3_HEADER_BYTES + size + footer;
}

const BITRATES_KBPS = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as const;

export interface Mp3Frame {
  /** Bytes from this header to the next (0 for "free format", whose length the header does not say). */
  length: number;
  /** MPEG version bits and sample rate: every frame of one stream has the same. */
  version: number;
  sampleRate: number;
}

/** The MPEG-1/2/2.5 Layer III frame whose header starts at `at`, or null. */
export function mp3FrameAt(bytes: Buffer, at: number): Mp3Frame | null {
  if (at + 4 > bytes.length) return null;
  const [b0, b1, b2, b3] = [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0b11; // 0: MPEG 2.5, 1: reserved, 2: MPEG 2, 3: MPEG 1
  const layer = (b1 >> 1) & 0b11; // 1: Layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  const padding = (b2 >> 1) & 1;
  if (version === 1 || layer !== 1 || bitrateIndex === 0xf || rateIndex === 3 || (b3 & 0b11) === 0b10) return null;
  const sampleRate = SAMPLE_RATES[version as 0 | 2 | 3][rateIndex]!;
  const kbps = (version === 3 ? BITRATES_KBPS.mpeg1 : BITRATES_KBPS.mpeg2)[bitrateIndex]!;
  const samplesPerByte = version === 3 ? 144 : 72;
  const length = kbps === 0 ? 0 : Math.floor((samplesPerByte * kbps * 1000) / sampleRate) + padding;
  return { length, version, sampleRate };
}

/**
 * Whether `window` (bytes of a file from where its audio should begin)
 * holds MP3 audio: a frame followed by another of the same stream, or one
 * that ends exactly where the file does (`reachesEnd`: the window is the
 * rest of the file).
 */
export function hasMp3Frames(window: Buffer, reachesEnd: boolean): boolean {
  for (let at = window.indexOf(0xff); at !== -1 && at < FIRST_FRAME_WITHIN; at = window.indexOf(0xff, at + 1)) {
    const frame = mp3FrameAt(window, at);
    if (!frame) continue;
    // Free format: the header is all there is to check.
    if (frame.length === 0) return true;
    const next = at + frame.length;
    if (reachesEnd && next === window.length) return true;
    const following = mp3FrameAt(window, next);
    if (following && following.version === frame.version && following.sampleRate === frame.sampleRate) return true;
  }
  return false;
}

/** Whether the file at `file` is an MP3 song, read from its own bytes. */
export async function isMp3File(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r");
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    };
    // A file may carry more than one tag in a row (an old one left in front by a tag editor).
    let start = 0;
    for (let tags = 0; tags < 4; tags++) {
      const tag = id3TagLength(await read(start, ID3_HEADER_BYTES));
      if (tag === null) break;
      start += tag;
    }
    if (start >= size) return false;
    const window = await read(start, WINDOW_BYTES);
    return hasMp3Frames(window, start + window.length >= size);
  } finally {
    await handle.close();
  }
}
