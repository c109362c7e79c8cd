import { execFile } from "node:child_process";
import { MediaProblem, PROCESSING_LIMITS, tooSlow } from "./processing-limits.server";

export interface ToolOptions {
  /** Wall-clock limit; past it the tool is killed. */
  timeoutMs: number;
  /** The job's own deadline: aborting kills the tool too. */
  signal?: AbortSignal;
  memoryBytes?: number;
  /** Called with each piece of what the tool prints on stdout as it runs (ffmpeg's `-progress pipe:1`). */
  onOutput?: (chunk: string) => void;
}

/** A tool that ran and failed (its exit code and the end of what it printed), or is not installed. */
export class ToolFailed extends Error {
  name = "ToolFailed";
  constructor(
    message: string,
    readonly missing: boolean,
  ) {
    super(message);
  }
}

/** Not the file's fault: the server lacks a tool. The admin reads this; the README says what to install. */
export const toolMissing = (command: string) =>
  new MediaProblem("failed", `${command} is not installed on the server, so the file could not be prepared`);

/**
 * Runs ffmpeg, ffprobe or heif-convert in a child process with a cap on its
 * address space (a decoder asked for a gigantic frame then fails instead of
 * taking the machine's memory), at a lower CPU priority than the web server,
 * and killed when it runs past its time or its job's deadline. Resolves with
 * what it printed on stdout.
 */
export function runTool(command: string, args: string[], options: ToolOptions): Promise<string> {
  const kib = Math.floor((options.memoryBytes ?? PROCESSING_LIMITS.toolMemoryBytes) / 1024);
  // `ulimit -v` and `nice` exist on every POSIX shell; exec keeps one process to kill.
  const script = `ulimit -v ${kib} && exec nice -n 10 "$0" "$@"`;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(tooSlow(Math.round(options.timeoutMs / 1000)));
    const child = execFile(
      "sh",
      ["-c", script, command, ...args],
      {
        timeout: options.timeoutMs,
        killSignal: "SIGKILL",
        signal: options.signal,
        maxBuffer: 4 * 1024 * 1024,
        // glibc would otherwise reserve 64 MB of address space per thread.
        env: { ...process.env, MALLOC_ARENA_MAX: "2" },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const killed = (error as { killed?: boolean }).killed || error.name === "AbortError";
        if (killed) return reject(tooSlow(Math.round(options.timeoutMs / 1000)));
        const code = (error as { code?: unknown }).code;
        const tail = String(stderr).trim().split("\n").slice(-3).join(" | ");
        // 127: no such command, or (said on stderr) its libraries could not be loaded, e.g. for lack of memory.
        const missing = code === 127 && !/shared librar/i.test(String(stderr));
        reject(new ToolFailed(`${command} failed (${String(code ?? error.message)}): ${tail}`, missing));
      },
    );
    const onOutput = options.onOutput;
    if (onOutput) child.stdout?.on("data", (chunk: Buffer | string) => onOutput(String(chunk)));
  });
}
