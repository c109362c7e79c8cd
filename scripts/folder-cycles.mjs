// Part of `npm run lint`: no import cycle between the rooms of app/ (its
// first-level folders; each file at app/'s top is a room of its own). ESLint's
// import-x/no-cycle sees cycles between files; this sees the folders, so that
// two domains cannot come to lean on each other one file at a time (as auth/
// and models/ once did). Type-only imports are erased and do not count.
// Usage: node scripts/folder-cycles.mjs
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const IMPORT = /(?:^|[;\s])(import|export)\s+(type\s+)?(?:([^"';]*?)\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

/** The room a file of app/ belongs to: its first-level folder, or the file itself at app/'s top. @param {string} relative */
export const roomOf = (relative) => (relative.includes("/") ? relative.slice(0, relative.indexOf("/")) : relative.replace(/\.tsx?$/, ""));

/** Whether an import clause names types only: `type X`, or `{ type A, type B }`. @param {string | undefined} clause */
function typesOnly(clause) {
  const names = /^\{([^}]*)\}$/.exec(clause?.trim() ?? "")?.[1];
  if (names === undefined) return false;
  const specifiers = names
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return specifiers.length > 0 && specifiers.every((name) => name.startsWith("type "));
}

/** The runtime imports of one source text, as written. @param {string} source */
export function runtimeImports(source) {
  /** @type {string[]} */
  const found = [];
  for (const match of source.matchAll(IMPORT)) {
    if (match[5]) found.push(match[5]);
    else if (match[4] && !match[2] && !typesOnly(match[3])) found.push(match[4]);
  }
  return found;
}

/** Every edge between rooms of `appDir`, with the files that make it: Map<"a → b", string[]>. @param {string} appDir */
export function roomEdges(appDir) {
  /** @type {Map<string, string[]>} */
  const edges = new Map();
  const files = readdirSync(appDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
  for (const file of files) {
    const from = path.relative(appDir, file);
    for (const specifier of runtimeImports(readFileSync(file, "utf8"))) {
      const base = specifier.startsWith("~/")
        ? path.join(appDir, specifier.slice(2))
        : specifier.startsWith(".")
          ? path.resolve(path.dirname(file), specifier)
          : null;
      const target = base && EXTENSIONS.map((ext) => base + ext).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
      if (!target || !target.startsWith(appDir + path.sep)) continue;
      const to = path.relative(appDir, target);
      if (roomOf(from) === roomOf(to)) continue;
      const key = `${roomOf(from)} → ${roomOf(to)}`;
      edges.set(key, [...(edges.get(key) ?? []), `${from} imports ${to}`]);
    }
  }
  return edges;
}

/** The cycles among rooms (strongly connected groups of two or more), each as its rooms. @param {Iterable<string>} edgeKeys */
export function roomCycles(edgeKeys) {
  /** @type {Map<string, string[]>} */
  const next = new Map();
  for (const key of edgeKeys) {
    const [from = "", to = ""] = key.split(" → ");
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  // Tarjan's strongly connected components.
  let index = 0;
  /** @type {Map<string, number>} */
  const order = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const groups = [];
  const visit = (/** @type {string} */ room) => {
    order.set(room, index);
    low.set(room, index++);
    stack.push(room);
    onStack.add(room);
    for (const to of next.get(room) ?? []) {
      if (!order.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room) ?? 0, order.get(to) ?? 0));
    }
    if (low.get(room) === order.get(room)) {
      /** @type {string[]} */
      const group = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        group.push(member);
      } while (member !== room);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const room of next.keys()) if (!order.has(room)) visit(room);
  return groups;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const edges = roomEdges(path.resolve("app"));
  const cycles = roomCycles(edges.keys());
  if (cycles.length === 0) {
    console.log(`No import cycle between the rooms of app/ (${edges.size} directions between rooms).`);
  } else {
    for (const group of cycles) {
      console.error(`Import cycle between the rooms ${group.join(", ")}:`);
      for (const [key, files] of edges) {
        const [from = "", to = ""] = key.split(" → ");
        if (group.includes(from) && group.includes(to)) console.error(`  ${key}: ${files.join("; ")}`);
      }
    }
    process.exit(1);
  }
}
