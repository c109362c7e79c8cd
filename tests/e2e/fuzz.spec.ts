// A fuzz test over HTTP: about 2,500 generated requests to every form action and
// API endpoint, at most 8 in flight. fast-check draws them from a fixed seed, so a
// failure comes back on the next run; FUZZ_SEED=<n> explores other inputs.
//
// For every answer: never a 5xx. Input that is certainly wrong (each generator
// knows which of its values are) gets a clear 4xx, in the {"errors": {...}} shape
// on the API, or, for the admin's no-JavaScript moderation forms, the redirect
// with an "Error" toast they are built around. Afterwards the server still
// answers normally and the database holds nothing half-written.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import Database from "better-sqlite3";
import fc from "fast-check";
import sharp from "sharp";
import { removeAllMemories, removeAllPoems, removeAllUploads } from "./support/data";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP only: runs once");

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_123);
const CONCURRENCY = 8;
const MIN_REQUESTS = 2000;
const BODY_CAP = 64 * 1024; // JSON bodies and forms (app/platform/http.server.ts)
const PARTS_CAP = 1024 * 1024; // POST …/multipart/{uploadId}/complete
const ADMIN = { username: "admin", password: "e2e-admin-password" };
const DATABASE = process.env.DATABASE_PATH ?? path.resolve("tests/.tmp/e2e/memorial.db");
const STATUSES = ["PENDING", "APPROVED", "REJECTED"];
const SITE_TITLE = "In Loving Memory";

// ---------------------------------------------------------------------------
// Requests, expectations and verdicts

type Ctx = "anon" | "admin";
type Table = "memories" | "rsvps" | "poems";
type Expectation =
  | { kind: "any" } // anything but a 5xx: the input may well be valid
  | { kind: "4xx" } // certainly wrong input
  | { kind: "status"; statuses: number[] }
  | { kind: "login" } // an admin form without a session: back to the login card
  | { kind: "failed-toast" }; // an admin form with a session and wrong input: redirect with the "Error" toast

interface Toast {
  title?: string;
  description?: string;
  type?: string;
}

interface Answer {
  status: number;
  text: string;
  location: string | null;
  toast: Toast | null;
}

interface Case {
  endpoint: string;
  method: string;
  url: string;
  ctx: Ctx;
  headers?: Record<string, string>;
  body?: Buffer;
  expect: Expectation;
  /** A 4xx answer must be {"errors": {"<field>": ["<message>"]}}; with names, a 400 must name one of them. */
  apiErrors?: string[] | true;
  /** A redirect must stay on this site (no open redirect). */
  sameSiteRedirect?: boolean;
  /** The rows this answer wrote, for the count check at the end. */
  wrote?: (answer: Answer) => Partial<Record<Table, number>>;
  /** More to check in this answer. */
  check?: (answer: Answer) => string | null;
}

const ANY: Expectation = { kind: "any" };
const WRONG: Expectation = { kind: "4xx" };
const LOGIN: Expectation = { kind: "login" };
const FAILED_TOAST: Expectation = { kind: "failed-toast" };
const status = (...statuses: number[]): Expectation => ({ kind: "status", statuses });

/** The one-time message of a redirect (the signed __toast cookie; its payload is base64 JSON). */
function toastOf(response: APIResponse): Toast | null {
  for (const header of response.headersArray()) {
    if (header.name.toLowerCase() !== "set-cookie") continue;
    const match = /^__toast=([^;]+)/.exec(header.value);
    if (!match?.[1]) continue;
    try {
      const raw = decodeURIComponent(match[1]);
      const payload = raw.slice(0, raw.lastIndexOf("."));
      const data = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as Record<string, unknown>;
      return (data.__flash_toast__ as Toast | undefined) ?? null;
    } catch {
      return null;
    }
  }
  return null;
}

function errorsShapeProblem(answer: Answer, fields: string[] | true): string | null {
  let data: unknown;
  try {
    data = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} from the API without a JSON body`;
  }
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== "object" || Array.isArray(errors)) return `a ${answer.status} without {"errors": {...}}`;
  const entries = Object.entries(errors as Record<string, unknown>);
  const wellFormed = (messages: unknown) =>
    Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === "string" && m.length > 0);
  if (!entries.length || !entries.every(([, messages]) => wellFormed(messages))) {
    return `a ${answer.status} whose errors are not {"<field>": ["<message>"]}`;
  }
  if (fields !== true && answer.status === 400 && !fields.some((field) => field in errors)) {
    return `the 400 names ${Object.keys(errors).join(", ")} but none of the wrong fields (${fields.join(", ")})`;
  }
  return null;
}

function verdict(c: Case, a: Answer): string | null {
  if (a.status >= 500) return `server error ${a.status}`;
  const e = c.expect;
  if (e.kind === "4xx" && (a.status < 400 || a.status > 499)) return `certainly invalid input answered ${a.status}, not a 4xx`;
  if (e.kind === "status" && !e.statuses.includes(a.status)) return `expected ${e.statuses.join(" or ")}, got ${a.status}`;
  if (e.kind === "login" && (a.status !== 302 || !a.location?.startsWith("/admin"))) {
    return `expected a redirect to the admin login, got ${a.status} ${a.location ?? ""}`;
  }
  if (e.kind === "failed-toast" && (a.status !== 302 || a.toast?.title !== "Error")) {
    return `expected a redirect with the "Error" toast, got ${a.status} with toast ${JSON.stringify(a.toast?.title ?? null)}`;
  }
  if (c.apiErrors && a.status >= 400 && a.status < 500) {
    const problem = errorsShapeProblem(a, c.apiErrors);
    if (problem) return problem;
  }
  if (c.sameSiteRedirect && a.status >= 300 && a.status < 400) {
    const to = a.location ?? "";
    if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return `redirects off the site, to ${JSON.stringify(to)}`;
  }
  return c.check?.(a) ?? null;
}

function describeCase(c: Case, a: Answer | null, problem: string) {
  const headers = Object.entries(c.headers ?? {})
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(", ");
  const preview = c.body ? JSON.stringify(c.body.subarray(0, 400).toString("utf8")) : "";
  const body = c.body ? `${c.body.length} bytes, ${preview}${c.body.length > 400 ? "…" : ""}` : "none";
  const answer = a ? `${a.status} ${JSON.stringify(a.text.slice(0, 300))}` : "none";
  return [
    `${c.endpoint}: ${problem}`,
    `  request: ${c.method} ${c.url} (${c.ctx === "admin" ? "admin session" : "no session"})`,
    `  headers: ${headers || "none"}`,
    `  body: ${body}`,
    `  answer: ${answer}`,
  ].join("\n");
}

// ---------------------------------------------------------------------------
// Generators: fast-check arbitraries, each value marked certainly wrong or not

const OMIT = Symbol("omit");
interface Gen {
  value: unknown;
  bad: boolean;
}
const plausible = (arb: fc.Arbitrary<unknown>) => arb.map((value): Gen => ({ value, bad: false }));
const certainlyWrong = (arb: fc.Arbitrary<unknown>) => arb.map((value): Gen => ({ value, bad: true }));
/** One field: usually a value that may be fine, sometimes one that is certainly wrong. */
const field = (fine: fc.Arbitrary<unknown>, wrong: fc.Arbitrary<unknown>) =>
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
const nasty = fc.constantFrom(...NASTY);
const text = (maxLength = 40) =>
  fc.oneof(
    { weight: 3, arbitrary: nasty },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength }) },
    { weight: 1, arbitrary: fc.string({ maxLength }) },
  );
const someText = (maxLength = 40) => text(maxLength).filter((s) => s.trim().length > 0);
/** Empty after String.prototype.trim, as zod's .trim() sees it. */
const blank = fc.constantFrom("", " ", "   ", "\t", "\r\n", "\n\n", "\u00a0", "\u2003", "\u3000", "\ufeff", "\u2028", " \t\r\n\u00a0 ");
/** Certainly more than `min` characters (UTF-16 units, as zod counts) after trimming. */
const tooLong = (min: number, max = min * 3) =>
  fc.tuple(fc.integer({ min: min + 1, max }), fc.constantFrom("x", "é", "😀", "ש", "\u0000")).map(([n, c]) => `A${c.repeat(n)}Z`);
const notText = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);
const notTextOrNull = fc.oneof(notText, fc.constant(null));
const email = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom("visitor@example.com", "ann.o'neil+memorial@example.co.uk", "üñî@exämple.de", " padded@example.com ", "a@b.co"),
);
const noEmailText = text(30).filter((s) => !s.includes("@"));
const message = fc
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
const shortMessage = text(9).filter((s) => s.length <= 9);

const FILE_NAMES = [
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

// --- JSON bodies -------------------------------------------------------------

type Problem = "none" | "content-type" | "malformed" | "not-object" | "too-large";
interface JsonBody {
  data: Buffer;
  headers: Record<string, string>;
  problem: Problem;
  /** Fields certainly wrong (structured bodies only). */
  bad: string[];
}

const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"];
const NOT_JSON_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
  "application/json-patch+json",
  "application/ld+json",
  "text/json",
  "application/xml",
  "application/octet-stream",
  "image/png",
  "json",
  "*/*",
  "application/jsonx",
  "", // an empty Content-Type header
];
const KNOWN_KEYS = new Set(
  "name email phone message canDisplay guestCount notes website title content author status direction filename type uploadURL submittedBy originalName width height durationSec parts username password redirectTo intent id enabled".split(
    " ",
  ),
);
const extraFields = fc.oneof(
  { weight: 3, arbitrary: fc.constant({} as Record<string, unknown>) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.string({ maxLength: 12 }).filter((key) => !KNOWN_KEYS.has(key)),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    ),
  },
);
const notJson = (s: string) => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
};
const malformedJson = fc.oneof(
  fc
    .constantFrom(
      "{",
      "}",
      '{"name":',
      "{'name':'x'}",
      "{name:1}",
      "[1,2",
      "nul",
      "tru",
      '{"a":1}}',
      '{"a":1,}',
      '{"a":01}',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":undefined}',
      "\u0000",
      "",
      " ",
      "\r\n",
      '{"a":"\\x41"}',
      '{"a":"\\u12"}',
      '{"a" 1}',
      "/* comment */{}",
      "{}//",
      "{}{}",
      '{"a":"\u0001"}',
    )
    .map((s) => Buffer.from(s)),
  fc
    .string({ maxLength: 30 })
    .filter(notJson)
    .map((s) => Buffer.from(s)),
  fc.constant(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.concat([Buffer.from("{\u0001"), Buffer.from(bytes)])),
);
const notObjectJson = fc
  .oneof(
    fc.constantFrom("[]", "null", "0", "-1", "1e999", '"text"', "true", "false", '[{"name":"x"}]', '"{}"', "[null]", " 42 "),
    fc
      .jsonValue({ maxDepth: 2 })
      .filter((v) => v === null || typeof v !== "object" || Array.isArray(v))
      .map((v) => JSON.stringify(v)),
  )
  .map((s) => Buffer.from(s));

function objectJson(fields: Record<string, Gen>, extra: Record<string, unknown>, pollute: boolean) {
  const object: Record<string, unknown> = {};
  const bad: string[] = [];
  for (const [name, gen] of Object.entries(fields)) {
    if (gen.bad) bad.push(name);
    if (gen.value !== OMIT) object[name] = gen.value;
  }
  for (const [key, value] of Object.entries(extra)) {
    Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
  }
  let json = JSON.stringify(object);
  if (pollute) {
    const rest = json === "{}" ? "" : `,${json.slice(1, -1)}`;
    json = `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}${rest}}`;
  }
  return { json, bad };
}

/** JSON bodies for an endpoint: mostly its fields (right, wrong, missing, extra), plus broken bodies. */
function jsonBody(fields: fc.Arbitrary<Record<string, Gen>>, keys: string[], cap = BODY_CAP): fc.Arbitrary<JsonBody> {
  const structured = fc
    .tuple(fields, extraFields, fc.nat(9), fc.constantFrom(...JSON_TYPES))
    .map(([values, extra, dice, type]): JsonBody => {
      const { json, bad } = objectJson(values, extra, dice === 0);
      const data = Buffer.from(json);
      return { data, headers: { "Content-Type": type }, problem: data.length > cap ? "too-large" : "none", bad };
    });
  const broken = fc
    .tuple(malformedJson, fc.constantFrom(...JSON_TYPES))
    .map(([data, type]): JsonBody => ({ data, headers: { "Content-Type": type }, problem: "malformed", bad: [] }));
  const notObject = fc
    .tuple(notObjectJson, fc.constantFrom(...JSON_TYPES))
    .map(([data, type]): JsonBody => ({ data, headers: { "Content-Type": type }, problem: "not-object", bad: [] }));
  const wrongType = fc
    .tuple(fields, fc.option(fc.constantFrom(...NOT_JSON_TYPES), { nil: undefined, freq: 6 }))
    .map(([values, type]): JsonBody => ({
      data: Buffer.from(objectJson(values, {}, false).json),
      // No header at all: Playwright then sends application/octet-stream.
      headers: type === undefined ? {} : { "Content-Type": type },
      problem: "content-type",
      bad: [],
    }));
  const huge = fc
    .tuple(fc.integer({ min: 66 * 1024, max: 100 * 1024 }), fc.constantFrom("x", "é", "😀", "\u0000", '"'), fc.constantFrom(...keys))
    .map(([bytes, unit, key]): JsonBody => {
      const unitBytes = Buffer.byteLength(JSON.stringify(unit)) - 2;
      const data = Buffer.from(JSON.stringify({ [key]: unit.repeat(Math.ceil(bytes / unitBytes)) }));
      return { data, headers: { "Content-Type": "application/json" }, problem: data.length > cap ? "too-large" : "none", bad: [] };
    });
  return fc.oneof(
    { weight: 12, arbitrary: structured },
    { weight: 2, arbitrary: broken },
    { weight: 2, arbitrary: notObject },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: huge },
  );
}

/** What readJsonObject and a zod schema answer, read first thing in the handler. */
function jsonVerdict(body: JsonBody, whenFine: Expectation): Pick<Case, "expect" | "apiErrors"> {
  if (body.problem === "content-type") return { expect: status(415), apiErrors: ["body"] };
  if (body.problem === "too-large") return { expect: status(413), apiErrors: ["body"] };
  if (body.problem === "malformed" || body.problem === "not-object") return { expect: status(400), apiErrors: ["body"] };
  if (body.bad.length) return { expect: status(400), apiErrors: body.bad };
  return { expect: whenFine, apiErrors: true };
}

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
const notAnId = fc.oneof(
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
const idOf = (real: number[]) =>
  real.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...real).map(String) }, { weight: 5, arbitrary: notAnId }) : notAnId;

function decoded(raw: string) {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
/** Whether the route could find a row for this path id: a small positive whole number (rows of this run). */
function maybeRow(raw: string) {
  const value = decoded(raw);
  return /^\d{1,15}$/.test(value) && Number(value) > 0 && Number(value) < 1_000_000;
}
/** The path stays on its route: no dot segments or encoded slashes for the URL parser to resolve, and it decodes. */
function canonical(raw: string) {
  if (/[./\\]|%2e|%2f|%5c/i.test(raw)) return false;
  try {
    decodeURIComponent(raw);
    return true;
  } catch {
    return false;
  }
}
/** Replaces lone surrogates, which encodeURIComponent refuses. */
function wellFormed(s: string) {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

// --- forms ------------------------------------------------------------------

type Part = { name: string; value: string } | { name: string; filename: string; type: string | null; data: Buffer } | { raw: string };

const ODD_PARTS = [
  "Content-Disposition: form-data\r\n\r\nno name",
  'Content-Disposition: form-data; name=""\r\n\r\nempty name',
  'Content-Disposition: form-data; name="名前"\r\n\r\nunicode name',
  'Content-Disposition: form-data; name="zz"\r\nContent-Transfer-Encoding: base64\r\n\r\nQUJD',
  'Content-Disposition: form-data; name="zz"\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n\u0000a',
  'Content-Disposition: form-data; name="zz"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n',
  "Content-Type: text/plain\r\n\r\nno disposition",
  'Content-Disposition: attachment; name="zz"\r\n\r\nattachment',
  "Content-Disposition: form-data; name=\"zz\"; filename*=UTF-8''%F0%9F%98%80.png\r\n\r\nstar",
  "Content-Disposition: form-data; name=unquoted\r\n\r\nunquoted",
  `Content-Disposition: form-data; name="${"k".repeat(2000)}"\r\n\r\nlong name`,
];
const URLENCODED_NOISE = [
  "",
  "",
  "",
  "",
  "&",
  "&&",
  "&=",
  "&=x",
  "&%",
  "&%zz=%zz",
  "&a=1&a=2",
  "&x%00y=1",
  "&+=+",
  "&%E0%A4%A=1",
  ";",
  `&_=${"x".repeat(10)}`,
];
const hexTag = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 8, maxLength: 16 });
const quoteParam = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

function multipart(parts: Part[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ("raw" in part) chunks.push(Buffer.from(part.raw));
    else if ("value" in part)
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${quoteParam(part.name)}"\r\n\r\n${part.value}`));
    else {
      const type = part.type === null ? "" : `Content-Type: ${part.type}\r\n`;
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${quoteParam(part.name)}"; filename="${quoteParam(part.filename)}"\r\n${type}\r\n`,
        ),
      );
      chunks.push(part.data);
    }
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

interface FormBody {
  data: Buffer;
  headers: Record<string, string>;
  problem: "none" | "content-type" | "too-large";
  /** Fields certainly wrong. */
  bad: string[];
  /** The first value of each field as the server reads it (urlencoded: URLSearchParams; multipart: our one text part). */
  view: Record<string, string | undefined>;
  /** Odd multipart parts that may make the whole form unreadable. */
  odd: boolean;
}

const REQUIRED_TEXT = new Set(["name", "email", "message", "title", "content"]);

/** Form posts, url-encoded or multipart, of these fields (values are strings or OMIT). */
function formBody(fields: fc.Arbitrary<Record<string, Gen>>, keys: string[]): fc.Arbitrary<FormBody> {
  const regular = fc
    .tuple(
      fields,
      fc.constantFrom("urlencoded", "multipart"),
      fc.constantFrom(...URLENCODED_NOISE),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant([] as string[]) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom(...ODD_PARTS), { minLength: 1, maxLength: 2 }) },
      ),
      fc.nat(24),
      hexTag,
    )
    .map(([values, encoding, noise, odd, fileDice, tag]): FormBody => {
      const bad: string[] = [];
      const view: Record<string, string | undefined> = {};
      const parts: Part[] = [];
      for (const [name, gen] of Object.entries(values)) {
        if (gen.bad) bad.push(name);
        if (gen.value === OMIT) continue;
        const value = String(gen.value);
        // A required text field sent as a file: the server gets a File, never text.
        if (encoding === "multipart" && fileDice === 0 && REQUIRED_TEXT.has(name) && !gen.bad) {
          parts.push({ name, filename: "field.txt", type: "text/plain", data: Buffer.from(value || "x") });
          bad.push(name);
          continue;
        }
        parts.push({ name, value });
        view[name] = value;
      }
      if (encoding === "urlencoded") {
        const pairs = parts.map((p) =>
          "value" in p ? `${encodeURIComponent(wellFormed(p.name))}=${encodeURIComponent(wellFormed(p.value))}` : "",
        );
        const body = pairs.join("&") + noise;
        const params = new URLSearchParams(body);
        for (const name of Object.keys(view)) view[name] = params.get(name) ?? undefined;
        const data = Buffer.from(body);
        return {
          data,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          problem: data.length > BODY_CAP ? "too-large" : "none",
          bad,
          view,
          odd: false,
        };
      }
      const boundary = `----fuzz${tag}`;
      const data = multipart([...odd.map((raw) => ({ raw })), ...parts], boundary);
      for (const name of Object.keys(view)) view[name] = view[name] === undefined ? undefined : wellFormed(view[name]!);
      return {
        data,
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
        problem: data.length > BODY_CAP ? "too-large" : "none",
        bad,
        view,
        odd: odd.length > 0,
      };
    });
  const wrongType = fc
    .tuple(
      fields,
      fc.option(
        fc.constantFrom("text/plain", "application/json", "application/octet-stream", "multipart/mixed; boundary=x", "text/html", ""),
        { nil: undefined, freq: 5 },
      ),
    )
    .map(([values, type]): FormBody => {
      const params = new URLSearchParams();
      for (const [name, gen] of Object.entries(values)) if (gen.value !== OMIT) params.append(name, wellFormed(String(gen.value)));
      return {
        data: Buffer.from(type === "application/json" ? JSON.stringify(Object.fromEntries(params)) : params.toString()),
        headers: type === undefined ? {} : { "Content-Type": type },
        problem: "content-type",
        bad: [],
        view: {},
        odd: false,
      };
    });
  const huge = fc
    .tuple(fc.integer({ min: 66 * 1024, max: 100 * 1024 }), fc.constantFrom(...keys), fc.constantFrom("urlencoded", "multipart"))
    .map(([bytes, key, encoding]): FormBody => {
      const value = "m".repeat(bytes);
      const data = encoding === "urlencoded" ? Buffer.from(`${key}=${value}`) : multipart([{ name: key, value }], "----fuzzhuge");
      const type = encoding === "urlencoded" ? "application/x-www-form-urlencoded" : "multipart/form-data; boundary=----fuzzhuge";
      return { data, headers: { "Content-Type": type }, problem: "too-large", bad: [], view: {}, odd: false };
    });
  return fc.oneof({ weight: 14, arbitrary: regular }, { weight: 2, arbitrary: wrongType }, { weight: 1, arbitrary: huge });
}

/** What readFormData and a conform/zod schema answer. */
function formVerdict(body: FormBody, whenFine: Expectation): Expectation {
  if (body.problem === "content-type") return status(415);
  if (body.problem === "too-large") return status(413);
  if (body.bad.length) return status(400);
  return body.odd ? ANY : whenFine;
}

// ---------------------------------------------------------------------------
// The world the fuzz runs in: what the setup created

interface World {
  origin: string;
  memoryIds: number[];
  poemIds: number[];
  /** Uploads only approved or rejected (never rotated), so no rotation races a rejection. */
  moderatable: number[];
  /** Uploads only rotated (never rejected). */
  rotatable: number[];
  uploads: { id: number; files: string[] }[];
  approvedUploadId: number;
  signedNoFile: string;
  putTarget: string;
  completedUrl: string;
  multipartA: { key: string; uploadId: string };
  multipartB: { key: string; uploadId: string };
  contents: { data: Buffer; media: boolean }[];
}

function pathAndQuery(url: string) {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** Draws `count` values with a seed of their own, so one generator's changes leave the others' inputs alone. */
function draw<T>(label: string, arb: fc.Arbitrary<T>, count: number): T[] {
  let hash = SEED | 0;
  for (const char of label) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return fc.sample(arb, { seed: hash, numRuns: count });
}

const sameSite = (origin: string) =>
  fc.constantFrom<Record<string, string>>({}, {}, {}, {}, { Origin: origin }, { Referer: `${origin}/guestbook` });

function buildCases(w: World): Case[] {
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  const same = sameSite(w.origin);
  const withHeaders = (body: { headers: Record<string, string> }, extra: Record<string, string>) => ({ ...extra, ...body.headers });

  // --- POST /api/guestbook -------------------------------------------------
  const memoryFields = fc.record({
    name: field(someText(100), fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(100))),
    email: field(
      email,
      fc.oneof(
        fc.constant(OMIT),
        notTextOrNull,
        blank,
        noEmailText,
        fc.constantFrom("a@", "@example.com", "a@@example.com"),
        tooLong(254).map((s) => `${s}@example.com`),
      ),
    ),
    phone: field(
      fc.oneof(fc.constantFrom(OMIT, null, "", "+44 20 7946 0958", "(555) 010-0199", "٠١٢٣٤"), text(15)),
      fc.oneof(notText, tooLong(40)),
    ),
    message: field(message, fc.oneof(fc.constant(OMIT), notTextOrNull, shortMessage, tooLong(5000, 9000))),
    canDisplay: field(fc.constantFrom(OMIT, true, false), fc.constantFrom("true", "yes", 1, 0, null, [], {})),
  });
  const memoryKeys = ["name", "email", "phone", "message"];
  for (const [body, extra] of draw("api guestbook", fc.tuple(jsonBody(memoryFields, memoryKeys), same), 200)) {
    add({
      endpoint: "POST /api/guestbook",
      method: "POST",
      url: "/api/guestbook",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      ...jsonVerdict(body, ANY),
      wrote: (a) => ({ memories: a.status === 201 ? 1 : 0 }),
    });
  }

  // --- POST /api/rsvp ---------------------------------------------------------
  const guestCountFine = fc.oneof(
    fc.integer({ min: 1, max: 10 }),
    fc.integer({ min: 1, max: 10 }).map(String),
    fc.constantFrom(OMIT, null, "", " 7 ", true),
  );
  const guestCountWrong = fc.oneof(
    fc.integer({ min: 11 }),
    fc.integer({ max: 0 }),
    fc.double({ min: 1.01, max: 9.99, noNaN: true }).filter((x) => !Number.isInteger(x)),
    fc.constantFrom("abc", "1e3", "0x10", "-3", "11", "0", "1.5", "٣", "Infinity", "NaN", {}, { n: 1 }, false, [], [1, 2]),
  );
  const rsvpFields = fc.record({
    name: field(someText(100), fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(100))),
    email: field(email, fc.oneof(fc.constant(OMIT), notTextOrNull, blank, noEmailText)),
    guestCount: field(guestCountFine, guestCountWrong),
    notes: field(fc.oneof(fc.constantFrom(OMIT, ""), text(100)), fc.oneof(notTextOrNull, tooLong(1000))),
  });
  for (const [body, extra] of draw("api rsvp", fc.tuple(jsonBody(rsvpFields, ["name", "notes"]), same), 150)) {
    add({
      endpoint: "POST /api/rsvp",
      method: "POST",
      url: "/api/rsvp",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      ...jsonVerdict(body, ANY),
      wrote: (a) => ({ rsvps: a.status === 201 ? 1 : 0 }),
    });
  }

  // --- POST /api/uploads/sign (the body is optional) ---------------------------
  const signFields = fc.record({ filename: plausible(fc.oneof(fc.constantFrom(...FILE_NAMES), text(), notTextOrNull, fc.constant(OMIT))) });
  for (const body of draw("api sign", jsonBody(signFields, ["filename"]), 40)) {
    const emptyType = body.headers["Content-Type"] === "";
    const empty = body.data.length === 0;
    const verdict: Pick<Case, "expect" | "apiErrors"> =
      (body.problem === "content-type" && emptyType) || (body.problem === "malformed" && empty)
        ? { expect: ANY, apiErrors: true } // no body to read: a plain signing
        : jsonVerdict(body, ANY);
    add({
      endpoint: "POST /api/uploads/sign",
      method: "POST",
      url: "/api/uploads/sign",
      ctx: "anon",
      headers: body.headers,
      body: body.data,
      ...verdict,
    });
  }

  // --- POST /api/uploads/complete ------------------------------------------------
  const uploadUrls = fc.oneof(
    fc.constantFrom(
      w.signedNoFile,
      pathAndQuery(w.signedNoFile),
      w.completedUrl,
      `${w.origin}/api/uploads/put/originals/AAAAAAAAAAAAAAAAAAAAAA.jpg?expires=1&signature=x`,
      "/api/uploads/put/originals/../../../../etc/passwd",
      "originals/%2e%2e%2f%2e%2e%2fmemorial.db",
      "../originals/AAAAAAAAAAAAAAAAAAAAAA",
      "file:///etc/passwd",
      "http://evil.example/originals/AAAAAAAAAAAAAAAAAAAAAA.jpg",
      "javascript:alert(1)",
      "%E0%A4%A",
      "originals/AAAAAAAAAAAAAAAAAAAAAA%00.jpg",
      "data:image/png;base64,AAAA",
      "\u0000",
    ),
    text(60),
  );
  const hint = field(
    fc.oneof(fc.constantFrom(OMIT, null, 0, 640, 1.5), fc.integer({ min: 0, max: 100_000 })),
    fc.oneof(fc.integer({ max: -1 }), fc.constantFrom("640", "abc", true, [], {}, -0.5)),
  );
  const completeFields = fc.record({
    uploadURL: field(uploadUrls, fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(4096, 6000))),
    submittedBy: field(fc.oneof(fc.constantFrom(OMIT, null), text(60)), fc.oneof(notText, tooLong(400))),
    type: field(fc.constantFrom(OMIT, null, "IMAGE", "VIDEO"), fc.constantFrom("image", "AUDIO", "", 1, true, [], "IMAGE ")),
    originalName: field(fc.oneof(fc.constantFrom(OMIT, null), fc.constantFrom(...FILE_NAMES), text()), fc.oneof(notText, tooLong(255))),
    width: hint,
    height: hint,
    durationSec: hint,
  });
  for (const body of draw("api complete", jsonBody(completeFields, ["uploadURL", "originalName"]), 100)) {
    // Nothing here was both issued by this site and uploaded without being completed:
    // every structured body is refused too (400), by its fields or its uploadURL.
    add({
      endpoint: "POST /api/uploads/complete",
      method: "POST",
      url: "/api/uploads/complete",
      ctx: "anon",
      headers: body.headers,
      body: body.data,
      ...jsonVerdict(body, status(400)),
    });
  }

  // --- the multipart calls ----------------------------------------------------------
  const { multipartA: A, multipartB: B } = w;
  const mpCreateFields = fc.record({
    filename: plausible(fc.oneof(fc.constantFrom(...FILE_NAMES), text(), notTextOrNull, fc.constant(OMIT))),
    type: plausible(
      fc.oneof(
        fc.constantFrom("video/mp4", "image/jpeg", "", "../../x", "text/html; charset=utf-8"),
        text(),
        notTextOrNull,
        fc.constant(OMIT),
      ),
    ),
  });
  for (const body of draw("api multipart create", jsonBody(mpCreateFields, ["filename", "type"]), 30)) {
    add({
      endpoint: "POST /api/uploads/s3/multipart",
      method: "POST",
      url: "/api/uploads/s3/multipart",
      ctx: "anon",
      headers: body.headers,
      body: body.data,
      ...jsonVerdict(body, ANY),
    });
  }

  const multipartIds = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(A.uploadId, B.uploadId) },
    { weight: 4, arbitrary: notAnId },
    {
      weight: 1,
      arbitrary: fc.constantFrom("x".repeat(65), "short", "AAAAAAAAAAAAAAAA", A.uploadId.toLowerCase(), `${A.uploadId}%00`, "complete"),
    },
  );
  const keyTricks = fc.oneof(
    fc.constantFrom(
      "originals/../../../etc/passwd",
      "../memorial.db",
      "originals/%2e%2e%2f%2e%2e%2fmemorial.db",
      "",
      "%00",
      `/${A.key}`,
      `${A.key}\u0000`,
      A.key.toUpperCase(),
      `${A.key}/..`,
      A.key.replace("originals/", "originals/../"),
    ),
    text(30),
  );
  const keys = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(A.key, B.key) },
    { weight: 3, arbitrary: keyTricks },
    { weight: 1, arbitrary: fc.constant(OMIT) },
  );
  const keyQuery = (key: unknown, raw: boolean) =>
    key === OMIT ? "" : `?key=${raw ? String(key).replace(/[#&]/g, encodeURIComponent) : encodeURIComponent(wellFormed(String(key)))}`;
  const realPair = (uploadId: string, key: unknown) =>
    (uploadId === A.uploadId && key === A.key) || (uploadId === B.uploadId && key === B.key);
  const partNumbers = fc.oneof(
    fc.constantFrom("1", "2", "10000"),
    fc.constantFrom("0", "10001", "-1", "1e3", "0x10", "1.5", "99999999999999999999", "%00", "%E0%A4%A", "NaN", "١"),
    fc.integer().map(String),
  );
  for (const [uploadId, partNumber, key, raw] of draw("api multipart part", fc.tuple(multipartIds, partNumbers, keys, fc.boolean()), 60)) {
    const url = `/api/uploads/s3/multipart/${uploadId}/${partNumber}${keyQuery(key, raw)}`;
    const fine = realPair(uploadId, key) && /^\d+$/.test(partNumber) && Number(partNumber) >= 1 && Number(partNumber) <= 10_000;
    add({
      endpoint: "GET /api/uploads/s3/multipart/{uploadId}/{partNumber}",
      method: "GET",
      url,
      ctx: "anon",
      expect: fine ? ANY : WRONG,
      apiErrors: canonical(uploadId) && canonical(partNumber) ? true : undefined,
    });
  }
  for (const [uploadId, key, raw] of draw("api multipart list", fc.tuple(multipartIds, keys, fc.boolean()), 50)) {
    add({
      endpoint: "GET /api/uploads/s3/multipart/{uploadId}",
      method: "GET",
      url: `/api/uploads/s3/multipart/${uploadId}${keyQuery(key, raw)}`,
      ctx: "anon",
      expect: realPair(uploadId, key) ? ANY : WRONG,
      apiErrors: canonical(uploadId) ? true : undefined,
    });
  }
  const partsFields = fc.record({
    parts: field(
      fc.array(fc.record({ PartNumber: fc.integer({ min: 1, max: 10_000 }), ETag: fc.string({ minLength: 1, maxLength: 40 }) }), {
        minLength: 1,
        maxLength: 5,
      }),
      fc.oneof(
        fc.constant(OMIT),
        notTextOrNull.filter((v) => !Array.isArray(v)),
        fc.constant([]),
        fc.array(
          fc.record({ PartNumber: fc.constantFrom(0, -1, 1.5, "1", 10_001, null), ETag: fc.constantFrom("", 1, null, "x".repeat(201)) }),
          { minLength: 1, maxLength: 3 },
        ),
      ),
    ),
  });
  for (const [uploadId, key, raw, body] of draw(
    "api multipart complete",
    fc.tuple(multipartIds, keys, fc.boolean(), jsonBody(partsFields, ["parts"], PARTS_CAP)),
    60,
  )) {
    // No listed part can match a stored part's ETag: always refused.
    const verdict = jsonVerdict(body, WRONG);
    add({
      endpoint: "POST /api/uploads/s3/multipart/{uploadId}/complete",
      method: "POST",
      url: `/api/uploads/s3/multipart/${uploadId}/complete${keyQuery(key, raw)}`,
      ctx: "anon",
      headers: body.headers,
      body: body.data,
      expect: canonical(uploadId) ? verdict.expect : WRONG,
      apiErrors: canonical(uploadId) ? verdict.apiErrors : undefined,
    });
  }
  const abortPairs = fc.tuple(multipartIds, keys, fc.boolean()).filter(([uploadId, key]) => !realPair(uploadId, key));
  for (const [uploadId, key, raw] of draw("api multipart abort", abortPairs, 40)) {
    add({
      endpoint: "DELETE /api/uploads/s3/multipart/{uploadId}",
      method: "DELETE",
      url: `/api/uploads/s3/multipart/${uploadId}${keyQuery(key, raw)}`,
      ctx: "anon",
      expect: WRONG,
      apiErrors: canonical(uploadId) ? true : undefined,
    });
  }

  // --- PUT {uploadURL} (the disk driver's signed address) ---------------------------
  const target = new URL(w.putTarget);
  const tampered = fc.oneof(
    fc.constant({ url: target.pathname + target.search, fine: true }),
    fc.constantFrom("signature", "expires", "uploadId", "partNumber").chain((name) =>
      fc.oneof(fc.constantFrom("", "x", "%00", "0", "-1", "1e20", "AAAA", "9".repeat(30)), fc.string({ maxLength: 20 })).map((value) => {
        const params = new URLSearchParams(target.search);
        params.set(name, wellFormed(value));
        return { url: `${target.pathname}?${params}`, fine: false };
      }),
    ),
    fc.constantFrom("signature", "expires").map((name) => {
      const params = new URLSearchParams(target.search);
      params.delete(name);
      return { url: `${target.pathname}?${params}`, fine: false };
    }),
    fc
      .constantFrom(
        "originals/AAAAAAAAAAAAAAAAAAAAAA.jpg",
        "originals/../../../etc/passwd",
        "originals/%2e%2e%2f%2e%2e%2fmemorial.db",
        "..%2f..%2fmemorial.db",
        "%E0%A4%A",
        "originals/%00.jpg",
        "",
        "media/1/x.jpg",
      )
      .map((key) => ({ url: `/api/uploads/put/${key}${target.search}`, fine: false })),
  );
  const putBodies = fc.tuple(
    fc.oneof(
      fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
      fc.constantFrom(...w.contents.map((c) => c.data)),
    ),
    fc.option(fc.constantFrom("image/jpeg", "application/octet-stream", "text/html", "", "../../x"), { nil: undefined }),
  );
  for (const [{ url, fine }, [data, type]] of draw("api put", fc.tuple(tampered, putBodies), 40)) {
    add({
      endpoint: "PUT /api/uploads/put/{key}",
      method: "PUT",
      url,
      ctx: "anon",
      headers: type === undefined ? {} : { "Content-Type": type },
      body: data,
      expect: fine ? ANY : WRONG,
      apiErrors: fine || !url.startsWith("/api/uploads/put/originals/") || /%2e|%E0|\.\./i.test(url) ? undefined : true,
    });
  }

  // --- POST /api/admin/login: only bodies of the wrong shape (never a wrong password) ------
  const badUser = fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(100, 400));
  const anyUser = fc.oneof(badUser, fc.constantFrom("admin", "ADMIN", "root"), someText(30));
  const badPassword = fc.oneof(fc.constant(OMIT), notTextOrNull, fc.constant(""), tooLong(1000, 1500));
  const anyPassword = fc.oneof(badPassword, fc.constantFrom(ADMIN.password, "wrong-password", " "), text(30));
  const loginFields = fc.oneof(
    fc
      .tuple(badUser, anyPassword)
      .map(([username, password]) => ({ username: { value: username, bad: true }, password: { value: password, bad: false } })),
    fc
      .tuple(anyUser, badPassword)
      .map(([username, password]) => ({ username: { value: username, bad: false }, password: { value: password, bad: true } })),
  );
  for (const [body, extra] of draw("api login", fc.tuple(jsonBody(loginFields, ["username", "password"]), same), 80)) {
    add({
      endpoint: "POST /api/admin/login",
      method: "POST",
      url: "/api/admin/login",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      ...jsonVerdict(body, WRONG),
    });
  }

  // --- admin JSON calls with the session ------------------------------------------
  const moderation = fc.record({
    status: field(
      fc.constantFrom("APPROVED", "REJECTED"),
      fc.oneof(
        fc.constant(OMIT),
        notTextOrNull,
        fc.constantFrom("PENDING", "approved", "Approved", " APPROVED", "APPROVED\u0000", "DELETED", ""),
        nasty.filter((s) => s !== "APPROVED" && s !== "REJECTED"),
      ),
    ),
  });
  const idCase = (id: string, body: JsonBody) => {
    const verdict = jsonVerdict(body, maybeRow(id) ? ANY : status(404));
    if (!canonical(id)) return { expect: WRONG }; // resolved to another address: some 4xx
    return verdict.expect.kind === "status" && verdict.expect.statuses[0] === 404 ? { ...verdict, apiErrors: ["id"] } : verdict;
  };
  for (const [id, body] of draw("api admin memories", fc.tuple(idOf(w.memoryIds), jsonBody(moderation, ["status"])), 80)) {
    add({
      endpoint: "PATCH /api/admin/memories/{id}",
      method: "PATCH",
      url: `/api/admin/memories/${id}`,
      ctx: "admin",
      headers: body.headers,
      body: body.data,
      ...idCase(id, body),
    });
  }
  /** A published or pending upload must still have its original file. */
  const keepsItsFile = (a: Answer) => {
    if (a.status !== 200) return null;
    const upload = JSON.parse(a.text) as { status?: string; originalUrl?: string | null };
    return upload.status !== "REJECTED" && !upload.originalUrl
      ? `the upload is ${upload.status} but its files are gone (originalUrl null)`
      : null;
  };
  for (const [id, body] of draw("api admin uploads", fc.tuple(idOf(w.moderatable), jsonBody(moderation, ["status"])), 60)) {
    add({
      endpoint: "PATCH /api/admin/uploads/{id}",
      method: "PATCH",
      url: `/api/admin/uploads/${id}`,
      ctx: "admin",
      headers: body.headers,
      body: body.data,
      ...idCase(id, body),
      check: keepsItsFile,
    });
  }
  const direction = fc.record({
    direction: field(
      fc.constantFrom("left", "right"),
      fc.oneof(fc.constant(OMIT), notTextOrNull, fc.constantFrom("LEFT", "Right", "up", "left ", "", "180"), nasty),
    ),
  });
  for (const [id, body] of draw("api admin rotate", fc.tuple(idOf(w.rotatable), jsonBody(direction, ["direction"])), 50)) {
    add({
      endpoint: "POST /api/admin/uploads/{id}/rotate",
      method: "POST",
      url: `/api/admin/uploads/${id}/rotate`,
      ctx: "admin",
      headers: body.headers,
      body: body.data,
      ...idCase(id, body),
    });
  }
  const poemFields = fc.record({
    title: field(someText(60), fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(200, 2000))),
    content: field(fc.oneof(message, someText(200)), fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(20_000, 24_000))),
    author: field(fc.oneof(fc.constantFrom(OMIT, ""), text(30)), fc.oneof(notTextOrNull, tooLong(100, 500))),
  });
  for (const body of draw("api admin poems", jsonBody(poemFields, ["title", "content"]), 80)) {
    add({
      endpoint: "POST /api/admin/poems",
      method: "POST",
      url: "/api/admin/poems",
      ctx: "admin",
      headers: body.headers,
      body: body.data,
      ...jsonVerdict(body, ANY),
      wrote: (a) => ({ poems: a.status === 201 ? 1 : 0 }),
    });
  }
  for (const [id, body] of draw(
    "api admin poem delete",
    fc.tuple(idOf(w.poemIds), fc.option(jsonBody(poemFields, ["title"]), { nil: undefined })),
    50,
  )) {
    add({
      endpoint: "DELETE /api/admin/poems/{id}",
      method: "DELETE",
      url: `/api/admin/poems/${id}`,
      ctx: "admin",
      headers: body?.headers,
      body: body?.data,
      expect: !canonical(id) ? WRONG : maybeRow(id) ? ANY : status(404),
      apiErrors: canonical(id) ? ["id"] : undefined,
      wrote: (a) => ({ poems: a.status === 204 ? -1 : 0 }),
    });
  }

  // --- the admin's GET calls and exports, with and without the session ---------------
  const junkQuery = fc
    .array(fc.tuple(fc.constantFrom("limit", "offset", "status", "_", "format", "__proto__", "q"), text(12)), { maxLength: 3 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(wellFormed(v))}`).join("&")}` : ""));
  const ADMIN_LISTS = [
    "/api/admin/pending-memories",
    "/api/admin/pending-uploads",
    "/api/admin/rsvps/stats",
    "/api/admin/poems",
    "/api/admin/export/memories.csv",
    "/api/admin/export/contacts.csv",
  ];
  for (const [list, query] of draw("api admin gets", fc.tuple(fc.constantFrom(...ADMIN_LISTS), junkQuery), 70)) {
    add({ endpoint: `GET ${list}`, method: "GET", url: `${list}${query}`, ctx: "admin", expect: status(200) });
  }
  const allUploadIds = w.uploads.map((u) => u.id);
  for (const [kind, id] of draw(
    "api admin get one",
    fc.tuple(fc.constantFrom("memories", "uploads"), idOf([...w.memoryIds, ...allUploadIds])),
    30,
  )) {
    add({
      endpoint: `GET /api/admin/${kind}/{id}`,
      method: "GET",
      url: `/api/admin/${kind}/${id}`,
      ctx: "admin",
      expect: !canonical(id) ? WRONG : maybeRow(id) ? ANY : status(404),
      apiErrors: canonical(id) ? ["id"] : undefined,
    });
  }
  const anonAdminCalls = fc.oneof(
    fc.tuple(fc.constant("GET"), fc.constantFrom(...ADMIN_LISTS, "/api/admin/memories/1", "/api/admin/uploads/1")),
    fc.tuple(fc.constant("PATCH"), fc.constantFrom("/api/admin/memories/1", "/api/admin/uploads/1")),
    fc.tuple(fc.constant("POST"), fc.constantFrom("/api/admin/poems", "/api/admin/uploads/1/rotate")),
    fc.tuple(fc.constant("DELETE"), fc.constantFrom("/api/admin/poems/1")),
  );
  const forgedCookie = fc.option(
    fc.constantFrom(
      "__session=forged",
      "__session=eyJhZG1pbklkIjoxfQ%3D%3D.forged",
      "__session=%E0%A4%A",
      "__session=",
      "__session=a; __session=b",
    ),
    { nil: undefined, freq: 2 },
  );
  for (const [[method, url], body, cookie] of draw(
    "api admin anon",
    fc.tuple(anonAdminCalls, jsonBody(moderation, ["status"]), forgedCookie),
    60,
  )) {
    add({
      endpoint: `${method} /api/admin/* without a session`,
      method,
      url,
      ctx: "anon",
      headers: { ...(method === "GET" ? {} : body.headers), ...(cookie ? { Cookie: cookie } : {}) },
      body: method === "GET" ? undefined : body.data,
      expect: status(401),
      apiErrors: ["session"],
    });
  }
  for (let i = 0; i < 4; i++) {
    add({ endpoint: "POST /api/admin/logout without a session", method: "POST", url: "/api/admin/logout", ctx: "anon", expect: ANY });
  }

  // --- wrong methods on every API address ----------------------------------------------
  const API_METHODS: [string, string[], Ctx, boolean][] = [
    ["/api/guestbook", ["GET", "POST"], "anon", true],
    ["/api/rsvp", ["POST"], "anon", true],
    ["/api/uploads/sign", ["POST"], "anon", true],
    ["/api/uploads/complete", ["POST"], "anon", true],
    ["/api/uploads/s3/multipart", ["POST"], "anon", true],
    [`/api/uploads/s3/multipart/${A.uploadId}/1?key=${encodeURIComponent(A.key)}`, ["GET"], "anon", true],
    [`/api/uploads/s3/multipart/${A.uploadId}?key=not-this-key`, ["GET", "DELETE"], "anon", true],
    [`/api/uploads/s3/multipart/${A.uploadId}/complete?key=${encodeURIComponent(A.key)}`, ["POST"], "anon", true],
    ["/api/uploads/put/originals/AAAAAAAAAAAAAAAAAAAAAA.jpg?expires=1&signature=x", ["PUT"], "anon", true],
    ["/api/admin/login", ["POST"], "anon", true],
    ["/api/admin/logout", ["POST"], "admin", true],
    ["/api/admin/memories/999999999", ["GET", "PATCH"], "admin", true],
    ["/api/admin/uploads/999999999", ["GET", "PATCH"], "admin", true],
    ["/api/admin/poems", ["GET", "POST"], "admin", true],
    ["/api/admin/poems/999999999", ["DELETE"], "admin", true],
    ["/api/admin/uploads/999999999/rotate", ["POST"], "admin", true],
    ["/api/admin/pending-memories", ["GET"], "admin", false],
    ["/api/admin/pending-uploads", ["GET"], "admin", false],
    ["/api/admin/rsvps/stats", ["GET"], "admin", false],
    ["/api/admin/export/memories.csv", ["GET"], "admin", false],
    ["/api/admin/export/contacts.csv", ["GET"], "admin", false],
    ["/api/gallery", ["GET"], "anon", false],
    ["/api/poems", ["GET"], "anon", false],
  ];
  const wrongMethod = fc
    .tuple(
      fc.constantFrom(...API_METHODS),
      fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
      fc.constantFrom("{}", '{"status":"APPROVED"}', "", "[]"),
    )
    .filter(([[, allowed], method]) => !allowed.includes(method));
  for (const [[url, , ctx, shaped], method, body] of draw("api wrong method", wrongMethod, 100)) {
    add({
      endpoint: `${method} on an API address without it`,
      method,
      url,
      ctx,
      headers: method === "GET" ? undefined : { "Content-Type": "application/json" },
      body: method === "GET" ? undefined : Buffer.from(body),
      expect: WRONG,
      apiErrors: shaped ? true : undefined,
    });
  }

  // --- form posts: /guestbook ----------------------------------------------------------
  const honeypot = plausible(fc.constantFrom(OMIT, OMIT, OMIT, "", "http://spam.example/"));
  const isBot = (view: Record<string, string | undefined>) => !!view.website;
  const guestbookForm = fc.record({
    name: field(someText(100), fc.oneof(fc.constant(OMIT), blank, tooLong(100, 1500))),
    email: field(email, fc.oneof(fc.constant(OMIT), blank, noEmailText, fc.constantFrom("a@", "@example.com"))),
    phone: field(fc.oneof(fc.constantFrom(OMIT, ""), text(15)), tooLong(40, 400)),
    message: field(message, fc.oneof(fc.constant(OMIT), shortMessage, tooLong(5000, 8000))),
    canDisplay: plausible(fc.constantFrom(OMIT, "on", "", "off", "true", "yes")),
    website: honeypot,
  });
  for (const [body, extra] of draw("form guestbook", fc.tuple(formBody(guestbookForm, ["message", "name"]), same), 150)) {
    add({
      endpoint: "POST /guestbook (form)",
      method: "POST",
      url: "/guestbook",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      expect: formVerdict(body, ANY),
      wrote: (a) => ({ memories: a.status === 302 && !isBot(body.view) ? 1 : 0 }),
    });
  }

  // --- /rsvp ------------------------------------------------------------------------------
  const rsvpForm = fc.record({
    name: field(someText(100), fc.oneof(fc.constant(OMIT), blank, tooLong(100, 1500))),
    email: field(email, fc.oneof(fc.constant(OMIT), blank, noEmailText)),
    guestCount: field(
      fc.oneof(fc.integer({ min: 1, max: 10 }).map(String), fc.constantFrom(OMIT, "", " 3 ")),
      fc.constantFrom("0", "11", "abc", "1e3", "0x10", "-3", "1.5", "٣", "NaN", "99999999999999999999"),
    ),
    notes: field(fc.oneof(fc.constantFrom(OMIT, ""), text(100)), tooLong(1000, 3000)),
    website: honeypot,
  });
  for (const [body, extra] of draw("form rsvp", fc.tuple(formBody(rsvpForm, ["notes", "name"]), same), 100)) {
    add({
      endpoint: "POST /rsvp (form)",
      method: "POST",
      url: "/rsvp",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      expect: formVerdict(body, ANY),
      wrote: (a) => ({ rsvps: a.status === 302 && !isBot(body.view) ? 1 : 0 }),
    });
  }

  // --- /share (multipart with files) ---------------------------------------------------------
  const fileParts = fc.record({
    field: fc.constantFrom("files", "files", "files", "files", "files", "file", "photos", ""),
    filename: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FILE_NAMES) }, { weight: 1, arbitrary: text(20) }),
    type: fc.constantFrom(
      "image/jpeg",
      "image/png",
      "video/mp4",
      "application/octet-stream",
      "text/html",
      "image/svg+xml",
      "application/x-msdownload",
      "../../x",
      "",
      "image/jpeg; charset=utf-8",
      "multipart/mixed; boundary=zzz",
      null,
    ),
    content: fc.nat(w.contents.length - 1),
  });
  const shareForm = fc.record({
    name: field(fc.oneof(someText(60), tooLong(2048, 3000)), fc.oneof(fc.constant(OMIT), blank)),
    email: field(fc.oneof(email, someText(30)), fc.oneof(fc.constant(OMIT), blank)),
    website: honeypot,
    files: fc.oneof(
      { weight: 2, arbitrary: fc.array(fileParts, { maxLength: 0 }) },
      { weight: 14, arbitrary: fc.array(fileParts, { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(fileParts, { minLength: 11, maxLength: 12 }) },
    ),
    odd: fc.oneof(
      { weight: 5, arbitrary: fc.constant([] as string[]) },
      { weight: 1, arbitrary: fc.array(fc.constantFrom(...ODD_PARTS), { minLength: 1, maxLength: 2 }) },
    ),
    filesFirst: fc.boolean(),
    mode: fc.constantFrom(
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "ok",
      "no-boundary",
      "wrong-boundary",
      "truncated",
      "wrong-type",
    ),
    tag: hexTag,
  });
  for (const [form, extra] of draw("form share", fc.tuple(shareForm, same), 70)) {
    const textParts: Part[] = [];
    for (const name of ["name", "email", "website"] as const) {
      const value = form[name].value;
      if (value !== OMIT) textParts.push({ name, value: String(value) });
    }
    const files: Part[] = form.files.map((f) => ({ name: f.field, filename: f.filename, type: f.type, data: w.contents[f.content]!.data }));
    const boundary = `----share${form.tag}`;
    const parts = [...form.odd.map((raw) => ({ raw })), ...(form.filesFirst ? [...files, ...textParts] : [...textParts, ...files])];
    let data = multipart(parts, boundary);
    let type = `multipart/form-data; boundary=${boundary}`;
    if (form.mode === "no-boundary") type = "multipart/form-data";
    if (form.mode === "wrong-boundary") type = "multipart/form-data; boundary=not-the-boundary";
    if (form.mode === "wrong-type") type = "application/x-www-form-urlencoded";
    const filled = (gen: Gen) => gen.value !== OMIT && String(gen.value).trim() !== "";
    const counted = form.files.filter((f) => f.field === "files" && f.filename !== "");
    // Truncated: cut half-way. Certainly refused when the cut comes before the email field is whole.
    let cutBeforeEmail = true;
    if (form.mode === "truncated") {
      const cut = Math.max(1, Math.floor(data.length / 2));
      const emailAt = data.indexOf('name="email"');
      cutBeforeEmail = emailAt === -1 || cut <= data.indexOf("\r\n--", emailAt);
      data = data.subarray(0, cut);
    }
    let expected: Expectation;
    if (form.mode === "wrong-type") expected = status(415);
    else if (form.mode !== "ok") expected = cutBeforeEmail ? WRONG : ANY;
    else if (!filled(form.name) || !filled(form.email) || counted.length === 0 || counted.length > 10) expected = WRONG;
    else if (form.website.value === "http://spam.example/") expected = ANY;
    else if (counted.every((f) => !w.contents[f.content]!.media))
      expected = WRONG; // nothing but unsupported files
    else expected = ANY;
    add({
      endpoint: "POST /share (multipart)",
      method: "POST",
      url: "/share",
      ctx: "anon",
      headers: { ...extra, "Content-Type": type },
      body: data,
      expect: expected,
    });
  }

  // --- /admin/login and /admin/logout ---------------------------------------------------------
  const loginForm = fc
    .oneof(
      fc
        .tuple(
          badUser.filter((v) => typeof v === "string" || v === OMIT),
          anyPassword.filter((v) => typeof v === "string" || v === OMIT),
        )
        .map(([u, p]) => ({ u: { value: u, bad: true }, p: { value: p, bad: false } })),
      fc
        .tuple(
          anyUser.filter((v) => typeof v === "string" || v === OMIT),
          badPassword.filter((v) => typeof v === "string" || v === OMIT),
        )
        .map(([u, p]) => ({ u: { value: u, bad: false }, p: { value: p, bad: true } })),
    )
    .chain(({ u, p }) =>
      fc.record({
        // The form no longer sends an intent; one sent anyway changes nothing.
        intent: plausible(fc.constantFrom(OMIT, OMIT, "login", "logout", "")),
        username: fc.constant(u),
        password: fc.constant(p),
        redirectTo: plausible(
          fc.oneof(
            fc.constantFrom(OMIT, "/admin/poems", "//evil.example", "https://evil.example", "/admin/../../etc", "/admin/login"),
            text(20),
          ),
        ),
      }),
    );
  for (const [ctx, body] of [
    ...draw("form admin login anon", formBody(loginForm, ["username", "password"]), 45).map((b) => ["anon", b] as const),
    ...draw("form admin login admin", formBody(loginForm, ["username", "password"]), 15).map((b) => ["admin", b] as const),
  ]) {
    // A username or password missing, empty or too long: refused before any password is checked.
    add({
      endpoint: "POST /admin/login (login form)",
      method: "POST",
      url: "/admin/login",
      ctx,
      headers: body.headers,
      body: body.data,
      expect: formVerdict({ ...body, bad: ["username"] }, ANY),
    });
  }
  // Logging out reads no fields: whatever it is sent, it ends the session (here: none) and answers.
  for (const body of draw("form admin logout anon", formBody(loginForm, ["username", "password"]), 15)) {
    add({
      endpoint: "POST /admin/logout",
      method: "POST",
      url: "/admin/logout",
      ctx: "anon",
      headers: body.headers,
      body: body.data,
      expect: ANY,
    });
  }

  // --- the moderation forms, with the session -------------------------------------------------------
  const pathId = (real: number[]) => idOf(real).filter(canonical);
  const moderationForm = (intents: string[], idsFor: (intent: string) => number[]) =>
    fc
      .constantFrom(...intents)
      .chain((intent) =>
        fc.record({ intent: plausible(fc.constant(intent)), id: plausible(fc.oneof(idOf(idsFor(intent)), fc.constant(OMIT))) }),
      );
  const moderates = (body: FormBody, succeedsWith: (intent: string) => number[]) => {
    const intent = body.view.intent ?? "";
    const id = body.view.id ?? "";
    const fine = /^\d{1,15}$/.test(id) && succeedsWith(intent).includes(Number(id));
    return formVerdict(body, fine ? ANY : FAILED_TOAST);
  };
  const memoryIntents = ["approve", "reject", "approve", "reject", "APPROVE", "publish", "", "delete", "rotate-left"];
  const memoryIds = (intent: string) => (intent === "approve" || intent === "reject" ? w.memoryIds : []);
  for (const [body, extra] of draw("form admin index", fc.tuple(formBody(moderationForm(memoryIntents, memoryIds), ["id"]), same), 40)) {
    add({
      endpoint: "POST /admin?index (memory form)",
      method: "POST",
      url: "/admin?index",
      ctx: "admin",
      headers: withHeaders(body, extra),
      body: body.data,
      expect: moderates(body, memoryIds),
    });
  }
  for (const [id, body] of draw(
    "form admin memory",
    fc.tuple(pathId(w.memoryIds), formBody(moderationForm(memoryIntents, memoryIds), ["id"])),
    40,
  )) {
    add({
      endpoint: "POST /admin/memories/{id} (form)",
      method: "POST",
      url: `/admin/memories/${id}`,
      ctx: "admin",
      headers: body.headers,
      body: body.data,
      expect: moderates(body, memoryIds),
    });
  }
  const uploadIntents = [
    "approve",
    "reject",
    "rotate-left",
    "rotate-right",
    "approve",
    "rotate-right",
    "ROTATE-LEFT",
    "rotate",
    "",
    "delete",
  ];
  const uploadIdsFor = (intent: string) =>
    intent === "approve" || intent === "reject" ? w.moderatable : intent === "rotate-left" || intent === "rotate-right" ? w.rotatable : [];
  for (const [body, extra] of draw(
    "form admin uploads",
    fc.tuple(formBody(moderationForm(uploadIntents, uploadIdsFor), ["id"]), same),
    30,
  )) {
    add({
      endpoint: "POST /admin/uploads (form)",
      method: "POST",
      url: "/admin/uploads",
      ctx: "admin",
      headers: withHeaders(body, extra),
      body: body.data,
      expect: moderates(body, uploadIdsFor),
    });
  }
  for (const [id, body] of draw(
    "form admin upload",
    fc.tuple(pathId(allUploadIds), formBody(moderationForm(uploadIntents, uploadIdsFor), ["id"])),
    30,
  )) {
    add({
      endpoint: "POST /admin/uploads/{id} (form)",
      method: "POST",
      url: `/admin/uploads/${id}`,
      ctx: "admin",
      headers: body.headers,
      body: body.data,
      expect: moderates(body, uploadIdsFor),
    });
  }
  const poemForm = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        intent: plausible(fc.constant("create")),
        title: poemFields.map((f) => f.title),
        content: poemFields.map((f) => f.content),
        author: poemFields.map((f) => f.author),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ intent: plausible(fc.constant("delete")), id: plausible(fc.oneof(idOf(w.poemIds), fc.constant(OMIT))) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ intent: plausible(fc.constantFrom(OMIT, "", "CREATE", "remove", "update")), title: plausible(someText(20)) }),
    },
  );
  const stringForm = (arb: fc.Arbitrary<Record<string, Gen>>) =>
    arb.filter((values) => Object.values(values).every((gen) => gen.value === OMIT || typeof gen.value === "string"));
  for (const [body, extra] of draw("form admin poems", fc.tuple(formBody(stringForm(poemForm), ["content", "title"]), same), 60)) {
    const intent = body.view.intent;
    let expected: Expectation;
    if (intent === "create") expected = formVerdict(body, ANY);
    else if (intent === "delete") expected = formVerdict({ ...body, bad: [] }, maybeRow(body.view.id ?? "") ? ANY : FAILED_TOAST);
    else expected = formVerdict({ ...body, bad: [] }, FAILED_TOAST);
    add({
      endpoint: "POST /admin/poems (form)",
      method: "POST",
      url: "/admin/poems",
      ctx: "admin",
      headers: withHeaders(body, extra),
      body: body.data,
      expect: expected,
      wrote: (a) => ({ poems: a.toast?.title === "Poem Created" ? 1 : a.toast?.title === "Poem Deleted" ? -1 : 0 }),
    });
  }

  // --- the same admin forms without a session: back to the login card, nothing done --------------------
  const anonAdminForms = fc.tuple(
    fc.constantFrom("/admin?index", "/admin/memories/1", "/admin/uploads", "/admin/uploads/1", "/admin/poems"),
    formBody(stringForm(poemForm), ["content"]),
  );
  for (const [url, body] of draw("form admin anon", anonAdminForms, 40)) {
    add({
      endpoint: `POST ${url.replace(/\/1$/, "/{id}")} (form, no session)`,
      method: "POST",
      url,
      ctx: "anon",
      headers: body.headers,
      body: body.data,
      expect: LOGIN,
    });
  }

  // --- /karen-mode -----------------------------------------------------------------------------
  const karenForm = fc.record({
    enabled: plausible(fc.constantFrom(OMIT, "on", "off", "ON", "", "1", "true")),
    redirectTo: plausible(
      fc.oneof(
        fc.constantFrom(
          OMIT,
          "/",
          "/gallery",
          "/guestbook?offset=10",
          "//evil.example",
          "/\\evil.example",
          "https://evil.example/",
          "javascript:alert(1)",
          "/%0d%0aSet-Cookie:%20x=1",
          "/a\r\nSet-Cookie: x=1",
          "/😀",
          "/\u0000",
          "/é",
          "",
        ),
        text(30),
        text(30).map((s) => `/${s}`),
      ),
    ),
  });
  for (const [body, data, extra] of draw("form karen", fc.tuple(formBody(karenForm, ["redirectTo"]), fc.nat(7), same), 60)) {
    add({
      endpoint: "POST /karen-mode (form)",
      method: "POST",
      url: data === 0 ? "/karen-mode?_data=routes%2Fkaren-mode" : "/karen-mode",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      expect: formVerdict({ ...body, bad: [] }, ANY),
      sameSiteRedirect: true,
    });
  }

  // --- addresses that do not exist --------------------------------------------------------------------
  const missing = fc.tuple(
    fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
    fc.constantFrom("/fuzz-missing-", "/fuzz-missing/deep/", "/api/fuzz-missing-", "/api/admin/fuzz-missing-", "/gallery/1/fuzz-missing-"),
    text(20).map((s) => encodeURIComponent(wellFormed(s))),
    fc.constantFrom("", "?a=1", "?_data=root"),
  );
  for (const [method, prefix, token, query] of draw("not found", missing, 40)) {
    const body = method === "GET" ? undefined : Buffer.from("a=b");
    add({
      endpoint: `${method} a missing address`,
      method,
      url: `${prefix}${token}${query}`,
      ctx: "anon",
      headers: body ? { "Content-Type": "application/x-www-form-urlencoded" } : undefined,
      body,
      expect: query === "?_data=root" ? ANY : status(404),
    });
  }

  // --- GET query strings -----------------------------------------------------------------------------
  const queryValue = fc.oneof(
    fc.constantFrom(
      "",
      "0",
      "1",
      "10",
      "20",
      "50",
      "51",
      "100",
      "101",
      "-1",
      "1e3",
      "0x10",
      "1.5",
      " 5",
      "5 ",
      "+5",
      "٣",
      "NaN",
      "Infinity",
      "99999999999999999999",
      "9007199254740992",
      "9007199254740991",
      "%00",
      "%",
      "%E0%A4%A",
      "[]",
      "null",
      "IMAGE",
      "VIDEO",
      "image",
      "ALL",
      "AUDIO",
    ),
    text(12),
    fc.nat().map(String),
  );
  const query = (keys: string[]) =>
    fc
      .array(fc.tuple(fc.constantFrom(...keys), queryValue, fc.boolean()), { maxLength: 4 })
      .map((pairs) =>
        pairs.length
          ? `?${pairs.map(([k, v, raw]) => `${k}=${raw ? wellFormed(v).replace(/[#&]/g, encodeURIComponent) : encodeURIComponent(wellFormed(v))}`).join("&")}`
          : "",
      );
  const wrongNumber = (params: URLSearchParams, name: string, min: number, max: number) => {
    const raw = params.get(name);
    if (raw === null || raw === "") return false;
    if (!/^\d+$/.test(raw)) return true;
    const n = Number(raw);
    return !Number.isSafeInteger(n) || n < min || n > max;
  };
  for (const [qs, cookie] of draw(
    "get api guestbook",
    fc.tuple(query(["limit", "offset", "limit", "offset", "type", "_"]), forgedCookie),
    80,
  )) {
    const params = new URL(`/api/guestbook${qs}`, w.origin).searchParams;
    const wrong = ["limit", "offset"].filter((name) =>
      wrongNumber(params, name, name === "limit" ? 1 : 0, name === "limit" ? 50 : Number.MAX_SAFE_INTEGER),
    );
    add({
      endpoint: "GET /api/guestbook?…",
      method: "GET",
      url: `/api/guestbook${qs}`,
      ctx: "anon",
      headers: cookie ? { Cookie: cookie } : undefined,
      expect: wrong.length ? status(400) : status(200),
      apiErrors: wrong.length ? wrong : undefined,
    });
  }
  for (const qs of draw("get api gallery", query(["limit", "offset", "type", "limit", "type", "_"]), 80)) {
    const params = new URL(`/api/gallery${qs}`, w.origin).searchParams;
    const wrong = ["limit", "offset"].filter((name) =>
      wrongNumber(params, name, name === "limit" ? 1 : 0, name === "limit" ? 100 : Number.MAX_SAFE_INTEGER),
    );
    const type = params.get("type");
    if (type !== null && type !== "" && type !== "IMAGE" && type !== "VIDEO") wrong.push("type");
    add({
      endpoint: "GET /api/gallery?…",
      method: "GET",
      url: `/api/gallery${qs}`,
      ctx: "anon",
      expect: wrong.length ? status(400) : type === "" ? ANY : status(200),
      apiErrors: wrong.length ? wrong : undefined,
    });
  }
  const pageQuery = query(["offset", "type", "offset", "type", "_data", "index", "limit"]);
  for (const [page, qs, cookie] of draw("get pages", fc.tuple(fc.constantFrom("/gallery", "/guestbook"), pageQuery, forgedCookie), 80)) {
    const lenient = !new URL(`${page}${qs}`, w.origin).searchParams.has("_data");
    add({
      endpoint: `GET ${page}?…`,
      method: "GET",
      url: `${page}${qs}`,
      ctx: "anon",
      headers: cookie ? { Cookie: cookie } : undefined,
      // The pages read what they understand and ignore the rest.
      expect: lenient ? status(200) : ANY,
    });
  }
  const pageIds = idOf([w.approvedUploadId]).filter((id) => !/^(\.|%2e){1,2}$/i.test(id));
  for (const id of draw("get gallery item", pageIds, 30)) {
    add({
      endpoint: "GET /gallery/{id}",
      method: "GET",
      url: `/gallery/${id}`,
      ctx: "anon",
      expect: decoded(id) === String(w.approvedUploadId) ? status(200) : maybeRow(id) ? ANY : WRONG,
    });
  }

  // --- GET /media/{id}/{file} --------------------------------------------------------------------------
  const knownFiles = w.uploads.flatMap((u) => u.files);
  const mediaFiles = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...knownFiles) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "../../package.json",
        "..%2f..%2fmemorial.db",
        "%2e%2e%2f%2e%2e%2f.env",
        "%00",
        "x.jpg%00.png",
        "%E0%A4%A",
        "a".repeat(300),
        "originals",
        "..%5c..%5cx",
        `${knownFiles[0]}%00`,
        encodeURIComponent(`../${knownFiles[0]}`),
      ),
    },
    { weight: 1, arbitrary: text(20).map((s) => encodeURIComponent(wellFormed(s)) || "x") },
  );
  const mediaIds = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...allUploadIds).map(String) },
    { weight: 2, arbitrary: notAnId.filter((id) => !/^(\.|%2e){1,2}$/i.test(id)) },
  );
  const range = fc.option(
    fc.constantFrom(
      "bytes=0-",
      "bytes=0-0",
      "bytes=-1",
      "bytes=-0",
      "bytes=5-1",
      "bytes=999999999999999999999-",
      "bytes=0-999999999999999999999",
      "bytes=abc",
      "bytes=0-1,2-3",
      "items=0-1",
      "bytes=-99999999999",
      "bytes= 1-2",
      "bytes=1-2-3",
      "",
    ),
    { nil: undefined },
  );
  const mediaQuery = fc.constantFrom(
    "",
    "",
    "",
    "?download=1",
    "?v=%00",
    "?w=99999999999999999999&h=-1",
    "?_data=routes%2Fmedia.%24id.%24file",
    "?%E0%A4%A=1",
  );
  for (const [id, file, qs, rangeHeader, ctx] of draw(
    "get media",
    fc.tuple(mediaIds, mediaFiles, mediaQuery, range, fc.constantFrom<Ctx>("anon", "anon", "admin")),
    60,
  )) {
    const real = w.uploads.some((u) => String(u.id) === id && u.files.includes(file));
    add({
      endpoint: "GET /media/{id}/{file}",
      method: "GET",
      url: `/media/${id}/${file}${qs}`,
      ctx,
      headers: rangeHeader === undefined ? undefined : { Range: rangeHeader },
      expect: real ? ANY : WRONG,
    });
  }

  return cases;
}

// ---------------------------------------------------------------------------

/**
 * The fuzz talks to the server from a loopback address of its own (127.0.0.2)
 * when it can, so the server's per-address limits (300 uploads in 10 minutes,
 * login lockout) it uses up are not those of the spec files sharing the server.
 */
async function fuzzOrigin(baseURL: string) {
  const own = new URL(baseURL);
  own.hostname = "127.0.0.2";
  const probe = await playwrightRequest.newContext();
  try {
    if ((await probe.get(`${own.origin}/healthz`, { timeout: 2000 })).ok()) return own.origin;
  } catch {
    // Not on this machine: share the usual address.
  } finally {
    await probe.dispose();
  }
  return new URL(baseURL).origin;
}

function shuffle<T>(items: T[], seed: number): T[] {
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

function rowCounts() {
  const db = new Database(DATABASE, { readonly: true, fileMustExist: true });
  try {
    const count = (table: Table) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { memories: count("memories"), rsvps: count("rsvps"), poems: count("poems") };
  } finally {
    db.close();
  }
}

test("thousands of generated requests: no 5xx, clear 4xx for wrong input, nothing half-written", async ({ baseURL }) => {
  test.setTimeout(170_000);
  const started = Date.now();
  const origin = await fuzzOrigin(baseURL!);
  const contexts: Record<Ctx, APIRequestContext> = {
    anon: await playwrightRequest.newContext({ baseURL: origin }),
    admin: await playwrightRequest.newContext({ baseURL: origin }),
  };
  const perEndpoint = new Map<string, number>();
  const wrongInputs = new Map<string, number>();
  let generated = "";
  const failures: string[] = [];
  const wrote: Record<Table, number> = { memories: 0, rsvps: 0, poems: 0 };
  let total = 0;

  let adminState: Awaited<ReturnType<APIRequestContext["storageState"]>> | undefined;
  async function send(c: Case): Promise<Answer | null> {
    total += 1;
    perEndpoint.set(c.endpoint, (perEndpoint.get(c.endpoint) ?? 0) + 1);
    // A body over the cap goes on a connection of its own: after refusing one the
    // server stops reading that connection (see "a refused body" below), which
    // would otherwise fail whichever request happened to reuse it next.
    const oversized = (c.body?.length ?? 0) > BODY_CAP;
    const context = oversized
      ? await playwrightRequest.newContext({ baseURL: origin, storageState: c.ctx === "admin" ? adminState : undefined })
      : contexts[c.ctx];
    let response: APIResponse;
    try {
      response = await context.fetch(c.url, {
        method: c.method,
        headers: c.headers,
        data: c.body,
        maxRedirects: 0,
        failOnStatusCode: false,
        timeout: 30_000,
      });
    } catch (error) {
      failures.push(describeCase(c, null, `no answer (${String(error).split("\n")[0]})`));
      if (oversized) await context.dispose();
      return null;
    }
    const answer: Answer = {
      status: response.status(),
      text: (await response.body()).toString("utf8"),
      location: response.headers().location ?? null,
      toast: toastOf(response),
    };
    await response.dispose();
    if (oversized) await context.dispose();
    const problem = verdict(c, answer);
    if (problem) failures.push(describeCase(c, answer, problem));
    for (const [table, n] of Object.entries(c.wrote?.(answer) ?? {})) wrote[table as Table] += n ?? 0;
    return answer;
  }
  /** A setup step: it must give `expected`, and its JSON answer is returned. */
  async function must<T>(c: Omit<Case, "expect">, expected: number): Promise<T> {
    const answer = await send({ ...c, expect: status(expected) });
    expect(answer?.status, `setup: ${c.method} ${c.url} answered ${answer?.status}: ${answer?.text.slice(0, 300)}`).toBe(expected);
    return (answer!.text ? JSON.parse(answer!.text) : null) as T;
  }
  const json = (data: unknown) => ({ headers: { "Content-Type": "application/json" }, body: Buffer.from(JSON.stringify(data)) });

  try {
    // --- 1. The one real login, before anything else (five wrong ones would lock logins for 15 minutes).
    await must({ endpoint: "POST /api/admin/login", method: "POST", url: "/api/admin/login", ctx: "admin", ...json(ADMIN) }, 200);
    await must({ endpoint: "GET /api/admin/pending-memories", method: "GET", url: "/api/admin/pending-memories", ctx: "admin" }, 200);
    adminState = await contexts.admin.storageState();

    // --- 2. Rows to aim at: memories, poems, an RSVP, uploads of every kind, signed and multipart uploads.
    const memoryIds: number[] = [];
    for (const name of ["Fuzz Seed One", "Fuzz Seed Two", "Fuzz Seed Three"]) {
      const { id } = await must<{ id: number }>(
        {
          endpoint: "POST /api/guestbook",
          method: "POST",
          url: "/api/guestbook",
          ctx: "anon",
          ...json({ name, email: "seed@example.com", message: "A memory to moderate while fuzzing." }),
        },
        201,
      );
      memoryIds.push(id);
    }
    await must(
      {
        endpoint: "PATCH /api/admin/memories/{id}",
        method: "PATCH",
        url: `/api/admin/memories/${memoryIds[0]}`,
        ctx: "admin",
        ...json({ status: "APPROVED" }),
      },
      200,
    );
    await must(
      {
        endpoint: "POST /api/rsvp",
        method: "POST",
        url: "/api/rsvp",
        ctx: "anon",
        ...json({ name: "Fuzz Seed", email: "seed@example.com", guestCount: 2 }),
      },
      201,
    );
    const poemIds: number[] = [];
    for (const title of ["Fuzz Poem One", "Fuzz Poem Two", "Fuzz Poem Three"]) {
      const { id } = await must<{ id: number }>(
        {
          endpoint: "POST /api/admin/poems",
          method: "POST",
          url: "/api/admin/poems",
          ctx: "admin",
          ...json({ title, content: "Line one\nLine two" }),
        },
        201,
      );
      poemIds.push(id);
    }

    const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: "#7a9cc6" } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 20, height: 30, channels: 3, background: "#c69a7a" } })
      .jpeg()
      .toBuffer();
    const heic = readFileSync(path.resolve("tests/fixtures/sample.heic"));
    const mp4 = readFileSync(path.resolve("tests/fixtures/sample.mp4"));
    // What files hold: what the server accepts (media: true, sniffed from the first bytes) and what it must refuse.
    const contents = [
      { data: png, media: true },
      { data: jpeg, media: true },
      { data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from("not really a JPEG after its first three bytes")]), media: true },
      { data: Buffer.from("GIF89a and then nothing a GIF needs"), media: true },
      { data: Buffer.concat([png.subarray(0, 8), Buffer.from("a PNG signature and garbage")]), media: true },
      { data: Buffer.from("hello, this is plain text"), media: false },
      { data: Buffer.alloc(0), media: false },
      { data: Buffer.from("<html><script>alert(1)</script></html>"), media: false },
      { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), media: false },
      { data: Buffer.from("MZ\x90\x00\x03\x00\x00\x00this program cannot be run", "latin1"), media: false },
      { data: Buffer.from("PK\x03\x04zip archive", "latin1"), media: false },
      { data: Buffer.from("%PDF-1.4 not a photo"), media: false },
      { data: Buffer.from("xxxxxxxx\x00\x01\x02\x03\xff\xfe random bytes", "latin1"), media: false },
    ];
    const tag = `fuzz${SEED}`;
    const seedFiles: [string, Buffer, string][] = [
      [`${tag}-moderate-a.png`, png, "image/png"],
      [`${tag}-moderate-b.png`, png, "image/png"],
      [`${tag}-public.png`, png, "image/png"],
      [`${tag}-rotate.jpg`, jpeg, "image/jpeg"],
      [`${tag}-rotate.heic`, heic, "image/heic"],
      [`${tag}-rotate.mp4`, mp4, "video/mp4"],
    ];
    const boundary = `----seed${tag}`;
    await must(
      {
        endpoint: "POST /share (multipart)",
        method: "POST",
        url: "/share",
        ctx: "anon",
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body: multipart(
          [
            { name: "name", value: "Fuzz Seed" },
            { name: "email", value: "seed@example.com" },
            ...seedFiles.map(([filename, data, type]) => ({ name: "files", filename, type, data })),
          ],
          boundary,
        ),
      },
      302,
    );
    type AdminUpload = { id: number; originalName: string | null; url: string; thumbnailUrl: string | null; originalUrl: string | null };
    const pending = await must<AdminUpload[]>(
      { endpoint: "GET /api/admin/pending-uploads", method: "GET", url: "/api/admin/pending-uploads", ctx: "admin" },
      200,
    );
    const seeded = (suffix: string) => {
      const upload = pending.find((u) => u.originalName === `${tag}-${suffix}`);
      expect(upload, `setup: the shared file ${tag}-${suffix} is pending`).toBeTruthy();
      return upload!.id;
    };
    const publicId = seeded("public.png");
    await must(
      {
        endpoint: "PATCH /api/admin/uploads/{id}",
        method: "PATCH",
        url: `/api/admin/uploads/${publicId}`,
        ctx: "admin",
        ...json({ status: "APPROVED" }),
      },
      200,
    );
    // Its public copy and thumbnail, once processed.
    await expect
      .poll(
        async () => {
          const items = await must<{ id: number; thumbnailUrl: string | null }[]>(
            { endpoint: "GET /api/gallery?…", method: "GET", url: "/api/gallery?limit=100", ctx: "anon" },
            200,
          );
          return items.find((item) => item.id === publicId)?.thumbnailUrl ?? null;
        },
        { timeout: 15_000 },
      )
      .not.toBeNull();

    // A direct upload, completed (with a name full of tricks), and two signed addresses.
    const sign = async (filename: string) =>
      (
        await must<{ uploadURL: string }>(
          { endpoint: "POST /api/uploads/sign", method: "POST", url: "/api/uploads/sign", ctx: "anon", ...json({ filename }) },
          200,
        )
      ).uploadURL;
    const completedUrl = await sign("done.png");
    await must(
      {
        endpoint: "PUT /api/uploads/put/{key}",
        method: "PUT",
        url: pathAndQuery(completedUrl),
        ctx: "anon",
        headers: { "Content-Type": "image/png" },
        body: png,
      },
      200,
    );
    await must(
      {
        endpoint: "POST /api/uploads/complete",
        method: "POST",
        url: "/api/uploads/complete",
        ctx: "anon",
        ...json({
          uploadURL: completedUrl,
          submittedBy: "Fuzz Seed (seed@example.com)",
          type: "IMAGE",
          originalName: "名前 \u202Eevil\u0000.png 😀 \ud800",
          width: 1,
          height: 1,
        }),
      },
      201,
    );
    const signedNoFile = await sign("never-sent.jpg");
    const putTarget = await sign("put-target.png");
    const startMultipart = () =>
      must<{ key: string; uploadId: string }>(
        {
          endpoint: "POST /api/uploads/s3/multipart",
          method: "POST",
          url: "/api/uploads/s3/multipart",
          ctx: "anon",
          ...json({ filename: "long-video.mp4", type: "video/mp4" }),
        },
        201,
      );
    const multipartA = await startMultipart();
    const multipartB = await startMultipart();
    const part = await must<{ url: string }>(
      {
        endpoint: "GET /api/uploads/s3/multipart/{uploadId}/{partNumber}",
        method: "GET",
        url: `/api/uploads/s3/multipart/${multipartA.uploadId}/1?key=${encodeURIComponent(multipartA.key)}`,
        ctx: "anon",
      },
      200,
    );
    await must(
      { endpoint: "PUT /api/uploads/put/{key}", method: "PUT", url: pathAndQuery(part.url), ctx: "anon", body: Buffer.alloc(1024, 7) },
      200,
    );

    const everyUpload = await must<AdminUpload[]>(
      { endpoint: "GET /api/admin/pending-uploads", method: "GET", url: "/api/admin/pending-uploads", ctx: "admin" },
      200,
    );
    const approved = await must<AdminUpload[]>(
      { endpoint: "GET /api/gallery?…", method: "GET", url: "/api/gallery?limit=100", ctx: "anon" },
      200,
    );
    const basename = (url: string | null) => (url ? url.split("/").pop()! : null);
    const uploads = [...everyUpload, ...approved.filter((a) => a.id === publicId)].map((u) => ({
      id: u.id,
      files: [u.url, u.thumbnailUrl, u.originalUrl].map(basename).filter((f): f is string => !!f),
    }));

    const world: World = {
      origin,
      memoryIds,
      poemIds,
      moderatable: [seeded("moderate-a.png"), seeded("moderate-b.png")],
      rotatable: [seeded("rotate.jpg"), seeded("rotate.heic"), seeded("rotate.mp4")],
      uploads,
      approvedUploadId: publicId,
      signedNoFile,
      putTarget,
      completedUrl,
      multipartA,
      multipartB,
      contents,
    };

    // --- 3. The fuzz: every generated request, in a seeded random order, 8 at a time.
    const before = rowCounts();
    const generating = Date.now();
    const cases = shuffle(buildCases(world), SEED);
    generated = `${cases.length} cases generated in ${((Date.now() - generating) / 1000).toFixed(1)} s`;
    const refusal = (e: Expectation) =>
      e.kind === "4xx" || e.kind === "login" || e.kind === "failed-toast" || (e.kind === "status" && e.statuses.every((s) => s >= 400));
    for (const c of cases) if (refusal(c.expect)) wrongInputs.set(c.endpoint, (wrongInputs.get(c.endpoint) ?? 0) + 1);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) await send(cases[next++]!);
      }),
    );
    const after = rowCounts();
    expect.soft(total, "requests sent").toBeGreaterThanOrEqual(MIN_REQUESTS);

    // --- 4. Nothing written by refused requests, and nothing half-written at all.
    expect
      .soft(
        { memories: after.memories - before.memories, rsvps: after.rsvps - before.rsvps, poems: after.poems - before.poems },
        "rows added during the fuzz = the requests answered as accepted",
      )
      .toEqual(wrote);
    expect.soft(failures, `${failures.length} wrong answers (seed ${SEED}):\n\n${failures.join("\n\n")}`).toEqual([]);

    // --- 5. The server still answers normally.
    const health = await send({ endpoint: "GET /healthz", method: "GET", url: "/healthz", ctx: "anon", expect: status(200) });
    expect(health?.text).toBe("ok");
    const home = await send({ endpoint: "GET /", method: "GET", url: "/", ctx: "anon", expect: status(200) });
    expect(home?.status).toBe(200);
    expect(home?.text).toContain(SITE_TITLE);
    const marker = `Still signing after the fuzz, seed ${SEED}, at ${Date.now()}.`;
    const signed = await must<{ id: number; status: string }>(
      {
        endpoint: "POST /api/guestbook",
        method: "POST",
        url: "/api/guestbook",
        ctx: "anon",
        ...json({ name: "After Fuzz", email: "after@example.com", message: marker }),
      },
      201,
    );
    expect(signed.status).toBe("PENDING");
    const stillAdmin = await must<{ id: number }[]>(
      { endpoint: "GET /api/admin/pending-memories", method: "GET", url: "/api/admin/pending-memories", ctx: "admin" },
      200,
    );
    expect(stillAdmin.map((m) => m.id)).toContain(signed.id);
    await must(
      {
        endpoint: "DELETE /api/uploads/s3/multipart/{uploadId}",
        method: "DELETE",
        url: `/api/uploads/s3/multipart/${multipartB.uploadId}?key=${encodeURIComponent(multipartB.key)}`,
        ctx: "anon",
      },
      200,
    );

    // A refused body must not take its connection down with it: the next request
    // on the same keep-alive connection is answered too (a browser reuses it).
    for (const [endpoint, url, type, data] of [
      ["POST /rsvp (form)", "/rsvp", "application/x-www-form-urlencoded", Buffer.from(`notes=${"m".repeat(1024 * 1024)}`)],
      ["POST /api/guestbook", "/api/guestbook", "application/json", Buffer.from(JSON.stringify({ message: "m".repeat(1024 * 1024) }))],
    ] as const) {
      const connection = await playwrightRequest.newContext({ baseURL: origin });
      try {
        total += 2;
        for (const label of [endpoint, "GET /healthz"]) perEndpoint.set(label, (perEndpoint.get(label) ?? 0) + 1);
        const refused = await connection.post(url, { headers: { "Content-Type": type }, data, maxRedirects: 0, failOnStatusCode: false });
        expect.soft(refused.status(), `POST ${url} with a ${data.length}-byte body`).toBe(413);
        const askedAt = Date.now();
        const next = await connection
          .get("/healthz", { timeout: 15_000, failOnStatusCode: false })
          .catch((error: unknown) => String(error).split("\n")[0]!);
        const seconds = ((Date.now() - askedAt) / 1000).toFixed(1);
        expect
          .soft(
            typeof next === "string" ? `${next} after ${seconds} s` : next.status(),
            `after refusing ${data.length} bytes to ${url} with 413, the next request on that connection (GET /healthz) is answered`,
          )
          .toBe(200);
      } finally {
        await connection.dispose();
      }
    }

    // --- 6. The database file, read-only: whole, consistent, no half-written row.
    const db = new Database(DATABASE, { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare("select message from memories where id = ?").get(signed.id), "the test reads the server's own database").toEqual({
        message: marker,
      });
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.pragma("foreign_key_check")).toEqual([]);
      const filled = (value: unknown) => typeof value === "string" && value.trim().length > 0;
      type Row = Record<string, unknown>;
      const memories = db.prepare("select id, name, email, message, status from memories").all() as Row[];
      expect(
        memories.filter(
          (m) =>
            !filled(m.name) ||
            !filled(m.email) ||
            !filled(m.message) ||
            String(m.message).trim().length < 10 ||
            !STATUSES.includes(String(m.status)),
        ),
        "memories with an empty name, email or message, a message under 10 characters, or an unknown status",
      ).toEqual([]);
      const rsvps = db.prepare("select id, name, email, guestCount from rsvps").all() as Row[];
      expect(
        rsvps.filter(
          (r) =>
            !filled(r.name) || !filled(r.email) || !Number.isInteger(r.guestCount) || Number(r.guestCount) < 1 || Number(r.guestCount) > 10,
        ),
        "RSVPs with an empty name or email, or a guest count outside 1 to 10",
      ).toEqual([]);
      const uploadRows = db.prepare("select id, type, url, status, storageKey from uploads").all() as Row[];
      expect(
        uploadRows.filter(
          (u) =>
            (!u.storageKey && u.status !== "REJECTED") ||
            !filled(u.url) ||
            !["IMAGE", "VIDEO"].includes(String(u.type)) ||
            !STATUSES.includes(String(u.status)),
        ),
        "uploads without their stored file (and not rejected), without an address, or of an unknown type or status",
      ).toEqual([]);
      const poems = db.prepare("select id, title, content from poems").all() as Row[];
      expect(
        poems.filter((p) => !filled(p.title) || !filled(p.content)),
        "poems with an empty title or content",
      ).toEqual([]);
    } finally {
      db.close();
    }
  } finally {
    const lines = [...perEndpoint.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([endpoint, n]) =>
          `${String(n).padStart(5)}  ${endpoint}${wrongInputs.get(endpoint) ? `  (${wrongInputs.get(endpoint)} certainly wrong)` : ""}`,
      );
    console.log(
      `fuzz (seed ${SEED}, ${origin}): ${total} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (${generated}), ${failures.length} wrong answers\n${lines.join("\n")}`,
    );
    await contexts.anon.dispose();
    await contexts.admin.dispose();
    // Leave the tables as the other spec files expect to find them (they clean up the same way).
    removeAllPoems();
    removeAllMemories();
    removeAllUploads();
  }
});
