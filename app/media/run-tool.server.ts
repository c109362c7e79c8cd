import { spawn, spawnSync, type ChildProcess } from "node:child_process";
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
  /** Resolve with the end of what it printed on stderr instead (where ffmpeg's filters report, loudnorm's measurement). */
  stderr?: boolean;
}

/** A tool that ran and failed (its exit code and the end of what it printed), or is not installed. */
export class ToolFailed extends Error {
  name = "ToolFailed";
  constructor(
    message: string,
    readonly missing: boolean,
    /** Ended by a signal it did not send itself (the kernel's out-of-memory killer, an operator): not its input's fault. */
    readonly killed = false,
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
 * deadline. Resolves with what it printed on stdout (or the end of stderr).
 *
 * The tool never outlives the server (docs/media.md): it runs in a process
 * group of its own, which is ended when its job is aborted and when the
 * server stops (`stopAllTools`), and, where util-linux's `setpriv` is
 * installed (every Debian), with the kernel's parent-death signal, so a
 * server killed outright (`kill -9`, out of memory) takes its tools with it.
 */
export function runTool(command: string, args: string[], options: ToolOptions): Promise<string> {
  const kib = Math.floor((options.memoryBytes ?? PROCESSING_LIMITS.toolMemoryBytes) / 1024);
  const budget = options.cpuSeconds;
  // `ulimit -v`, `ulimit -t` and `nice` exist on every POSIX shell; exec keeps one process to kill.
  const cpuCap = budget === undefined ? "" : `ulimit -t ${Math.ceil(budget) + 10} && `;
  const script = `ulimit -v ${kib} && ${cpuCap}exec nice -n 10 "$0" "$@"`;
  const slow = () => tooSlow(Math.round((options.timeoutMs ?? 0) / 1000));
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted || stopped) return reject(slow());
    // A budget of nothing is spent before the tool starts: it is not started (a short file would otherwise finish first).
    if (budget !== undefined && budget <= 0) return reject(new CpuBudgetExceeded(budget));
    const [file, argv] = withParentDeathSignal("sh", ["-c", script, command, ...args]);
    const child = spawn(file, argv, {
      // setsid: a group of its own, so ending the group ends the tool and anything it started.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: toolEnvironment(process.env),
    });
    running.add(child);
    let stdout = "";
    let stderr = "";
    let overBudget = false;
    let killedBy: "timeout" | "abort" | null = null;
    const kill = (reason: "timeout" | "abort" | null) => {
      killedBy ??= reason;
      killGroup(child);
    };
    const timer = options.timeoutMs ? setTimeout(() => kill("timeout"), options.timeoutMs) : undefined;
    const onAbort = () => kill("abort");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
      options.onOutput?.(chunk);
    });
    child.stderr.on("data", (chunk: string) => {
      // Only its end is ever shown.
      stderr = (stderr + chunk).slice(-MAX_OUTPUT);
    });
    const settle = () => {
      if (watch) clearInterval(watch);
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      running.delete(child);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      settle();
      reject(new ToolFailed(`${command} could not be started: ${error.message}`, error.code === "ENOENT"));
    });
    child.once("close", (code, signal) => {
      settle();
      if (code === 0) return resolve(options.stderr ? stderr : stdout);
      // Stopped by our own check, or by the kernel at `ulimit -t` (SIGXCPU, then SIGKILL).
      if (budget !== undefined && (overBudget || signal === "SIGXCPU")) return reject(new CpuBudgetExceeded(budget));
      if (killedBy || stopped) return reject(slow());
      const tail = stderr.trim().split("\n").slice(-3).join(" | ");
      // 127: no such command, or (said on stderr) its libraries could not be loaded, e.g. for lack of memory.
      const missing = code === 127 && !/shared librar/i.test(stderr);
      reject(new ToolFailed(`${command} failed (${String(code ?? signal)}): ${tail}`, missing, code === null && signal !== null));
    });
    const pid = child.pid;
    const check = () => {
      if (budget === undefined || pid === undefined) return;
      void processCpuSeconds(pid).then((used) => {
        if (used !== null && used >= budget && !overBudget && child.exitCode === null) {
          overBudget = true;
          kill(null);
        }
      });
    };
    // Once at the start (a budget of nothing stops it at once), then every half second.
    check();
    const watch = budget === undefined ? undefined : setInterval(check, 500);
  });
}

/** What a tool may print that is kept (ffprobe's JSON of a file with many streams stays well under it). */
const MAX_OUTPUT = 4 * 1024 * 1024;

/** The tools running now, each the leader of its own process group. */
const running = new Set<ChildProcess>();
/** Set once the server is stopping: no tool starts after that. */
let stopped = false;

function killGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

/**
 * Ends every tool running (their whole process groups) and starts no more:
 * on the server's shutdown, so no encode goes on beside the next server's.
 * Synchronous, so it can run in an "exit" handler too.
 */
export function stopAllTools() {
  stopped = true;
  for (const child of running) killGroup(child);
}

/**
 * Starts a long piece of background work (the memory book) in a child
 * process at the lowest CPU priority (`nice -n 19`), so that on one shared
 * CPU visitors' pages go first, with the same guarantees as a tool: its own
 * process group, killed with the server (the parent-death signal) and at
 * shutdown (`stopAllTools`), and by `kill()`.
 */
export function startLowPriority(command: string, args: string[]) {
  const [file, argv] = withParentDeathSignal("nice", ["-n", "19", command, ...args]);
  const child = spawn(file, argv, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: process.env });
  running.add(child);
  child.once("close", () => running.delete(child));
  child.once("error", () => running.delete(child));
  return { child, kill: () => killGroup(child) };
}

let setprivFound: boolean | undefined;

/**
 * The command under `setpriv --pdeathsig KILL` (util-linux): the kernel kills
 * the tool when the server's process dies, however it dies. The setting
 * survives the `exec` of sh, nice and the tool, which keep its process.
 * Where setpriv is missing (macOS), the tool runs as it is and only the
 * shutdown ends it.
 */
function withParentDeathSignal(file: string, args: string[]): [string, string[]] {
  if (setprivFound === undefined) {
    setprivFound = spawnSync("setpriv", ["--pdeathsig", "KILL", "true"], { stdio: "ignore" }).status === 0;
    // A server that ends by process.exit() (a clean shutdown) ends its tools on the way out.
    process.once("exit", stopAllTools);
  }
  return setprivFound ? ["setpriv", ["--pdeathsig", "KILL", "--", file, ...args]] : [file, args];
}
