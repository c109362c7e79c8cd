import type Sharp from "sharp";

let loading: Promise<typeof Sharp> | null = null;

/**
 * sharp (libvips), loaded at its first use rather than at start: it is
 * about 140 ms of a cold start that a visitor's first page never needs.
 * Set for a 512 MB machine with one shared CPU: libvips' operation cache
 * off (it kept a 100 MP photo's decoded pixels mapped after the job, and
 * the server's memory at 240–400 MB) and one thread.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}
