import { execFile } from "node:child_process";
import { CpuBudgetExceeded, processCpuSeconds } from "./cpu-budget.server";
import { MediaProblem, PROCESSING_LIMITS, tooSlow } from "./processing-limits.server";

export interface ToolOptions {
  /** Wall-clock limit; past it the tool is killed. None for a tool budgeted in CPU seconds. */
  timeoutMs?: number;
  /**
   * CPU seconds the tool may use (user and system): past them it is killed
   * and the promise rejects with CpuBudgetExceeded. Read from /proc every
   * half second; `ulimit -t` a little above it stops the tool where there is no /proc.
   */
  cpuSeconds?: number;
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
 * The environment a tool runs with: the server's, without the allocator
 * preloaded into node (LD_PRELOAD of jemalloc reserves address space that
 * the tool's `ulimit -v` cap counts), and with glibc's arenas limited
 * (glibc would otherwise reserve 64 MB of address space per thread).
 */
export function toolEnvironment<Env extends Record<string, string | undefined>>(env: Env) {
  const result: Env & { MALLOC_ARENA_MAX: string } = { ...env, MALLOC_ARENA_MAX: "2" };
  delete result.LD_PRELOAD;
  return result;
}

/**
 * Runs ffmpeg, ffprobe or heif-convert in a child process with a cap on its
 * address space (a decoder asked for a gigantic frame then fails instead of
 * taking the machine's memory), at a lower CPU priority than the web server,
 * and killed when it runs past its time, its CPU budget or its job's
 * deadline. Resolves with what it printed on stdout.
 */
export function runTool(command: string, args: string[], options: ToolOptions): Promise<string> {
  const kib = Math.floor((options.memoryBytes ?? PROCESSING_LIMITS.toolMemoryBytes) / 1024);
  const budget = options.cpuSeconds;
  // `ulimit -v`, `ulimit -t` and `nice` exist on every POSIX shell; exec keeps one process to kill.
  const cpuCap = budget === undefined ? "" : `ulimit -t ${Math.ceil(budget) + 10} && `;
  const script = `ulimit -v ${kib} && ${cpuCap}exec nice -n 10 "$0" "$@"`;
  const slow = () => tooSlow(Math.round((options.timeoutMs ?? 0) / 1000));
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(slow());
    let overBudget = false;
    const child = execFile(
      "sh",
      ["-c", script, command, ...args],
      {
        timeout: options.timeoutMs ?? 0,
        killSignal: "SIGKILL",
        signal: options.signal,
        maxBuffer: 4 * 1024 * 1024,
        env: toolEnvironment(process.env),
      },
      (error, stdout, stderr) => {
        if (watch) clearInterval(watch);
        if (!error) return resolve(stdout);
        const signal = (error as { signal?: string | null }).signal;
        // Stopped by our own check, or by the kernel at `ulimit -t` (SIGXCPU, then SIGKILL).
        if (budget !== undefined && (overBudget || signal === "SIGXCPU")) return reject(new CpuBudgetExceeded(budget));
        const killed = (error as { killed?: boolean }).killed || error.name === "AbortError";
        if (killed) return reject(slow());
        const code = (error as { code?: unknown }).code;
        const tail = String(stderr).trim().split("\n").slice(-3).join(" | ");
        // 127: no such command, or (said on stderr) its libraries could not be loaded, e.g. for lack of memory.
        const missing = code === 127 && !/shared librar/i.test(String(stderr));
        reject(new ToolFailed(`${command} failed (${String(code ?? error.message)}): ${tail}`, missing));
      },
    );
    const pid = child.pid;
    const check = () => {
      if (budget === undefined || pid === undefined) return;
      void processCpuSeconds(pid).then((used) => {
        if (used !== null && used >= budget && !overBudget && child.exitCode === null) {
          overBudget = true;
          child.kill("SIGKILL");
        }
      });
    };
    // Once at the start (a budget of nothing stops it at once), then every half second.
    check();
    const watch = budget === undefined ? undefined : setInterval(check, 500);
    const onOutput = options.onOutput;
    if (onOutput) child.stdout?.on("data", (chunk: Buffer | string) => onOutput(String(chunk)));
  });
}
