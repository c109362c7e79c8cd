// The memory book: GET /admin/exports/book.pdf (A4) saved by a client on the
// same machine, for 100 memories with 30 photos and 1,000 memories with 300
// photos (every tenth a video's poster), with the time and the server's peak
// RSS growth. As root on a machine with cgroup v1 or v2, the server runs in a
// 512 MB memory cgroup (the smallest machine the site is sold for).
// Target: RSS growth < 150 MB for the large book.
// Usage: npm run build && npm run bench -- book   (BENCH_BOOK_SMALL_ONLY=1 for the small one alone)
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { adminCookie, CONTAINER_ALLOCATOR, seedCrowd, startSite } from "./lib.mjs";
import { addToSummary } from "./summary.mjs";

const ADMIN = { username: "bench", password: "bench-password" };
const CASES = process.env.BENCH_BOOK_SMALL_ONLY
  ? [[100, 30]]
  : [
      [100, 30],
      [1000, 300],
    ];

function rssKb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
}

/** Puts `pid` in a 512 MB memory cgroup when the machine lets us; the cgroup's folder, or null. */
function cgroup512(pid) {
  const v2 = "/sys/fs/cgroup/unified";
  const candidates = [
    { dir: "/sys/fs/cgroup/memory/memorial-bench-book", limit: "memory.limit_in_bytes" },
    {
      dir: existsSync(`${v2}/cgroup.controllers`) ? `${v2}/memorial-bench-book` : "/sys/fs/cgroup/memorial-bench-book",
      limit: "memory.max",
    },
  ];
  for (const { dir, limit } of candidates) {
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, limit), String(512 * 1024 * 1024));
      writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
      return dir;
    } catch {
      // not this one
    }
  }
  return null;
}

const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: "#7a6a58" } })
  .composite([
    {
      input: Buffer.alloc(400 * 300 * 3).map(() => Math.floor(Math.random() * 255)),
      raw: { width: 400, height: 300, channels: 3 },
      tile: true,
    },
  ])
  .jpeg({ quality: 85 })
  .toBuffer();

const rows = [];
for (const [memories, photos] of CASES) {
  const site = await startSite({
    port: 3397,
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...CONTAINER_ALLOCATOR },
  });
  let group = null;
  try {
    seedCrowd(site.dir, { memories, uploads: photos });
    const objects = path.join(site.dir, "uploads", "objects");
    const sample = path.join(site.dir, "sample.jpg");
    writeFileSync(sample, photo);
    for (let i = 1; i <= photos; i++) {
      const original = path.join(objects, `originals/bench${String(i).padStart(17, "0")}`);
      const poster = path.join(objects, `media/${i}/thumb-${i}-thumb.jpg`);
      for (const file of [original, poster]) {
        mkdirSync(path.dirname(file), { recursive: true });
        copyFileSync(sample, file);
      }
    }
    group = cgroup512(site.pid);
    const cookie = await adminCookie(site.origin, ADMIN);
    const baseline = rssKb(site.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(site.pid))), 20);
    // A visitor's page while the book is made: how long the guest book takes to answer.
    const visitor = [];
    const visiting = setInterval(() => {
      const start = performance.now();
      fetch(`${site.origin}/guestbook`)
        .then((r) => r.arrayBuffer())
        .then(
          () => visitor.push(performance.now() - start),
          () => undefined,
        );
    }, 1000);
    const start = performance.now();
    const response = await fetch(`${site.origin}/admin/exports/book.pdf?size=a4`, { headers: { Cookie: cookie } });
    if (!response.ok) throw new Error(`book.pdf answered ${response.status}`);
    const bytes = (await response.arrayBuffer()).byteLength;
    const ms = performance.now() - start;
    clearInterval(sampler);
    clearInterval(visiting);
    peak = Math.max(peak, rssKb(site.pid));
    visitor.sort((a, b) => a - b);
    const row = {
      memories,
      photos,
      "time s": (ms / 1000).toFixed(1),
      "PDF MB": (bytes / 1024 ** 2).toFixed(1),
      "server RSS growth MB": ((peak - baseline) / 1024).toFixed(1),
      "guest book p50/max ms meanwhile": visitor.length
        ? `${Math.round(visitor[Math.floor(visitor.length / 2)])}/${Math.round(visitor[visitor.length - 1])}`
        : "-",
      cgroup: group ? "512 MB" : "none",
    };
    rows.push(row);
    console.table([row]);
  } finally {
    await site.stop();
    if (group) {
      try {
        rmdirSync(group);
      } catch {
        // still in use a moment longer; left for the system
      }
    }
  }
}
console.log(`load average: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
addToSummary(
  rows.map((row) => ({
    measure: `memory book, ${row.memories} memories and ${row.photos} photos`,
    result: `${row["time s"]} s, RSS growth ${row["server RSS growth MB"]} MB`,
    reference: `cgroup ${row.cgroup}`,
    target: "< 150 MB",
    met: Number(row["server RSS growth MB"]) < 150,
  })),
);
