/**
 * How much work one shared file may cost the server. The machine is small
 * (512 MB, one shared CPU), and a file of a few kilobytes can describe an
 * enormous picture or a thousand frames, so every limit is on what a file
 * asks for, not on its size. Measurements behind each figure are in the
 * comments; docs/media.md sums them up.
 */
export const PROCESSING_LIMITS = {
  /**
   * One still picture: 100 megapixels covers every phone camera's usual
   * setting (12 to 50 MP); libvips holds a turned picture of this size in
   * about 300 MB.
   */
  imagePixels: 100_000_000,
  /**
   * An animation is shown moving only when all its frames together stay
   * within 50 megapixels and 300 frames (re-encoding a GIF costs about 80 ms
   * per megapixel and 2 ms per frame here, so at most about 5 s); a longer
   * one is shown as its first frame.
   */
  animationPixels: 50_000_000,
  animationFrames: 300,
  /**
   * Videos up to 4K (3840 × 2160 or 4096 × 2160) fit; a larger frame (8K) is
   * refused before any frame is decoded. On 512 MB beside the server, an 8K
   * decode was killed for lack of memory, and at the shared CPU's baseline
   * one minute of 8K would take hours (docs/decisions/029-fly-box.md).
   */
  videoSide: 4096,
  videoPixels: 9_500_000,
  /**
   * Videos up to 30 minutes: a family video or a slideshow of a life (10 to
   * 20 minutes) fits with room to spare. Longer is refused before any frame
   * is decoded: a file of 300 KB can carry hours of 1080p, and the web copy
   * costs about 0.4 CPU-s per second and megapixel (30 minutes of 1080p:
   * about 25 minutes of one core, hours at a shared CPU's baseline), so no
   * length is free (docs/media.md).
   */
  videoSeconds: 30 * 60,
  /**
   * Address space for ffmpeg, ffprobe and heif-convert. About 250 MB of it
   * is their libraries; one 8K H.264 or 4K 10-bit HEVC frame decoded with
   * one thread fits in the rest (measured: 207 and 241 MB resident).
   */
  toolMemoryBytes: 512 * 1024 * 1024,
  /** sharp's own time limit for one picture, in seconds. */
  imageSeconds: 60,
};

export type ProcessingLimits = typeof PROCESSING_LIMITS;

/**
 * Why a file could not be turned into its public copies. The message is a
 * clause the admin reads after "This file could not be processed: ".
 */
export class MediaProblem extends Error {
  name = "MediaProblem";
  constructor(
    /** unreadable: not really a photo or video; refused at completion when found in time. */
    readonly kind: "unreadable" | "too-large" | "too-slow" | "failed",
    message: string,
  ) {
    super(message);
  }
}

export const tooSlow = (seconds: number) =>
  new MediaProblem("too-slow", `preparing it took longer than ${seconds} seconds, so it was stopped`);
