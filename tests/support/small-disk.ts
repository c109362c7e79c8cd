// A small tmpfs to fill to the last byte, for the tests of what a full disk does.
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";
import { scratchDir } from "./site-process";

const mounts: string[] = [];
let unmountRegistered = false;

/** A tmpfs of `megabytes` at a new folder (unmounted after the file's tests), or null where mounting is not allowed (not root). */
export function mountSmallDisk(megabytes: number): string | null {
  if (!unmountRegistered) {
    unmountRegistered = true;
    afterAll(() => {
      for (const dir of mounts.splice(0)) execFileSync("umount", ["-l", dir]);
    });
  }
  const dir = path.join(scratchDir(), "disk");
  mkdirSync(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir], { stdio: "pipe" });
  } catch {
    return null;
  }
  mounts.push(dir);
  return dir;
}

/** Writes a ballast file until the disk refuses another byte (64 KiB blocks, then 512 bytes); returns its path. */
export function fillDisk(dir: string): string {
  const ballast = path.join(dir, "ballast");
  const fd = openSync(ballast, "w");
  const chunk = Buffer.alloc(64 * 1024, 1);
  let firstRefusal: unknown;
  for (const size of [chunk.length, 512]) {
    try {
      for (;;) writeSync(fd, chunk.subarray(0, size));
    } catch (error) {
      firstRefusal ??= error;
    }
  }
  closeSync(fd);
  if ((firstRefusal as NodeJS.ErrnoException).code !== "ENOSPC") throw firstRefusal;
  return ballast;
}
