// The fuzz's values: fast-check arbitraries, each value marked certainly wrong
// or not, ids and keys for paths, and the seed everything is drawn from.
import fc from "fast-check";

/** fast-check draws from a fixed seed, so a failure comes back on the next run; FUZZ_SEED=<n> explores other inputs. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20_251_123);

export const OMIT = Symbol("omit");
export interface Gen {
  value: unknown;
  bad: boolean;
}
export const plausible = (arb: fc.Arbitrary<unknown>) => arb.map((value): Gen => ({ value, bad: false }));
const certainlyWrong = (arb: fc.Arbitrary<unknown>) => arb.map((value): Gen => ({ value, bad: true }));
/** One field: usually a value that may be fine, sometimes one that is certainly wrong. */
export const field = (fine: fc.Arbitrary<unknown>, wrong: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: plausible(fine) }, { weight: 1, arbitrary: certainlyWrong(wrong) });

const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u001b[31mred\u007f",
  "\b\f\v",
  "\r\n",
  "line\r\nSet-Cookie: fuzz=1",
  "\u2028\u2029",
  "👩‍👩‍👧‍👦 🕯️💐",
  "🏳️‍🌈",
  "مع السلامة يا أمي",
  "שלום חבר",
  "\u202Eevil\u202C",
  "\u200f\u200e",
  "Z\u0335\u0321\u0322a\u0334\u0327l\u0336g\u0337o\u0338",
  "e\u0301\u0301\u0301\u0301",
  "\ufeffbom",
  "\ud800",
  "\udfff",
  "\ud83d",
  "ｆｕｌｌｗｉｄｔｈ",
  "𝕳𝖊𝖑𝖑𝖔",
  "İıŞş ß ﷺ",
  "😀".repeat(30),
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "'; DROP TABLE memories; --",
  '" OR 1=1 --',
  "{{7*7}}",
  "${7*7}",
  "%s%s%n",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f",
  "%00",
  "%",
  "%E0%A4%A",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e3",
  "0x10",
  "99999999999999999999999",
  "__proto__",
  "constructor",
  "toString",
  "true",
  "[]",
  "{}",
];
export const nasty = fc.constantFrom(...NASTY);
export const text = (maxLength = 40) =>
  fc.oneof(
    { weight: 3, arbitrary: nasty },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength }) },
    { weight: 1, arbitrary: fc.string({ maxLength }) },
  );
export const someText = (maxLength = 40) => text(maxLength).filter((s) => s.trim().length > 0);
/** Empty after String.prototype.trim, as zod's .trim() sees it. */
export const blank = fc.constantFrom(
  "",
  " ",
  "   ",
  "\t",
  "\r\n",
  "\n\n",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "\u2028",
  " \t\r\n\u00a0 ",
);
/** Certainly more than `min` characters (UTF-16 units, as zod counts) after trimming. */
export const tooLong = (min: number, max = min * 3) =>
  fc.tuple(fc.integer({ min: min + 1, max }), fc.constantFrom("x", "é", "😀", "ש", "\u0000")).map(([n, c]) => `A${c.repeat(n)}Z`);
export const notText = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);
export const notTextOrNull = fc.oneof(notText, fc.constant(null));
export const email = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom("visitor@example.com", "ann.o'neil+memorial@example.co.uk", "üñî@exämple.de", " padded@example.com ", "a@b.co"),
);
export const noEmailText = text(30).filter((s) => !s.includes("@"));
export const message = fc
  .tuple(
    text(30),
    fc.constantFrom(
      "We will always remember you.",
      "Thank you for every kind word ❤️",
      "שלום — we miss you dearly",
      "Ma\u0301s que palabras, gracias",
    ),
    text(30),
  )
  .map(([before, words, after]) => `${before}${words}${after}`);
export const shortMessage = text(9).filter((s) => s.length <= 9);

export const FILE_NAMES = [
  "photo.jpg",
  "../../../../etc/passwd.jpg",
  "..\\..\\windows\\win.ini.png",
  "/etc/shadow.gif",
  "C:\\Users\\gran\\Pictures\\pic.jpeg",
  "%2e%2e%2f%2e%2e%2fevil.png",
  "....//....//x.jpg",
  ".jpg",
  "a.jpg.exe",
  "shell.php.jpg",
  "PHOTO.JPG",
  "clip.heic",
  "clip.mp4",
  "clip.mov",
  "clip.avi",
  "drawing.svg",
  "page.html",
  "CON.jpg",
  "nul.png",
  "😀🎉.png",
  "مرحبا.jpg",
  "gpj.exe\u202Egnp.jpg",
  "e\u0301.png",
  "tab\tname.jpg",
  'quote"name.jpg',
  "semi;colon.jpg",
  "new\r\nline.jpg",
  `${"a".repeat(300)}.png`,
  "%00.jpg",
  "x\u0000.jpg",
];

// --- ids and keys in paths ---------------------------------------------------

const ID_TRICKS = [
  "0",
  "-1",
  "-0",
  "+1",
  "1e3",
  "1E3",
  "0x10",
  "0b1",
  "0o7",
  "1.0",
  "1.5",
  ".5",
  "1,000",
  "NaN",
  "Infinity",
  "-Infinity",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "%00",
  "1%00",
  "%001",
  "%20",
  "1%20",
  "%2e%2e",
  "..",
  "../1",
  "..%2f1",
  "%2e%2e%2f1",
  "..%5c1",
  "%252e%252e",
  "%E0%A4%A",
  "%",
  "%zz",
  "١٢",
  "１",
  "𝟏",
  "'1",
  "1'--",
  "1;",
  "1%20OR%201=1",
  "9".repeat(16),
  "9007199254740993",
  "999999999999999",
  "000000000000000",
  "0000000000000001",
];
/** Ids of rows that certainly do not exist, and ids that are not ids at all. */
export const notAnId = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ID_TRICKS) },
  { weight: 2, arbitrary: fc.bigInt({ min: 10n ** 15n, max: 10n ** 40n }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: -1 }).map(String) },
  { weight: 2, arbitrary: fc.integer({ min: 1_000_000, max: 2 ** 31 }).map(String) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 10 })
      .map((s) => encodeURIComponent(wellFormed(s)))
      .filter((s) => !/^\d+$/.test(s)),
  },
);
export const idOf = (real: number[]) =>
  real.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...real).map(String) }, { weight: 5, arbitrary: notAnId }) : notAnId;

export function decoded(raw: string) {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
/** Whether the route could find a row for this path id: a small positive whole number (rows of this run). */
export function maybeRow(raw: string) {
  const value = decoded(raw);
  return /^\d{1,15}$/.test(value) && Number(value) > 0 && Number(value) < 1_000_000;
}
/** The path stays on its route: no dot segments or encoded slashes for the URL parser to resolve, and it decodes. */
export function canonical(raw: string) {
  if (/[./\\]|%2e|%2f|%5c/i.test(raw)) return false;
  try {
    decodeURIComponent(raw);
    return true;
  } catch {
    return false;
  }
}
/** Replaces lone surrogates, which encodeURIComponent refuses. */
export function wellFormed(s: string) {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

export const hexTag = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 8, maxLength: 16 });

/** Headers a request from this site's own pages may carry: none, its Origin, or a Referer. */
export const sameSite = (origin: string) =>
  fc.constantFrom<Record<string, string>>({}, {}, {}, {}, { Origin: origin }, { Referer: `${origin}/guestbook` });

/** A session cookie that is not one (or none). */
export const forgedCookie = fc.option(
  fc.constantFrom(
    "__session=forged",
    "__session=eyJhZG1pbklkIjoxfQ%3D%3D.forged",
    "__session=%E0%A4%A",
    "__session=",
    "__session=a; __session=b",
  ),
  { nil: undefined, freq: 2 },
);

export function pathAndQuery(url: string) {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** Draws `count` values with a seed of their own, so one generator's changes leave the others' inputs alone. */
export function draw<T>(label: string, arb: fc.Arbitrary<T>, count: number): T[] {
  let hash = SEED | 0;
  for (const char of label) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return fc.sample(arb, { seed: hash, numRuns: count });
}

/** The cases in a seeded random order. */
export function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
