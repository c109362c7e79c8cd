// The fuzz's request bodies: JSON for the API (right, wrong, missing and extra
// fields, broken JSON, the wrong Content-Type, too large) and forms, url-encoded
// or multipart, with what the server must answer to each.
import fc from "fast-check";
import { ANY, status, type Case, type Expectation } from "./cases";
import { hexTag, OMIT, wellFormed, type Gen } from "./values";

/** JSON bodies and forms (app/platform/http.server.ts). */
export const BODY_CAP = 64 * 1024;
/** POST …/multipart/{uploadId}/complete. */
export const PARTS_CAP = 1024 * 1024;

// --- JSON bodies -------------------------------------------------------------

type Problem = "none" | "content-type" | "malformed" | "not-object" | "too-large";
export interface JsonBody {
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
export function jsonBody(fields: fc.Arbitrary<Record<string, Gen>>, keys: string[], cap = BODY_CAP): fc.Arbitrary<JsonBody> {
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
      // No header at all: the client then sends application/octet-stream, as HTTP clients do (client.ts).
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
export function jsonVerdict(body: JsonBody, whenFine: Expectation): Pick<Case, "expect" | "apiErrors"> {
  if (body.problem === "content-type") return { expect: status(415), apiErrors: ["body"] };
  if (body.problem === "too-large") return { expect: status(413), apiErrors: ["body"] };
  if (body.problem === "malformed" || body.problem === "not-object") return { expect: status(400), apiErrors: ["body"] };
  if (body.bad.length) return { expect: status(400), apiErrors: body.bad };
  return { expect: whenFine, apiErrors: true };
}

// --- forms ------------------------------------------------------------------

export type Part =
  { name: string; value: string } | { name: string; filename: string; type: string | null; data: Buffer } | { raw: string };

export const ODD_PARTS = [
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
const quoteParam = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

export function multipart(parts: Part[], boundary: string): Buffer {
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

export interface FormBody {
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
export function formBody(fields: fc.Arbitrary<Record<string, Gen>>, keys: string[]): fc.Arbitrary<FormBody> {
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
export function formVerdict(body: FormBody, whenFine: Expectation): Expectation {
  if (body.problem === "content-type") return status(415);
  if (body.problem === "too-large") return status(413);
  if (body.bad.length) return status(400);
  return body.odd ? ANY : whenFine;
}
