// A fuzz test over HTTP of the site's addresses: what visitors read (the
// guest book and gallery lists and pages with odd query strings, a gallery
// item, the media files with odd names and Range headers), addresses that do
// not exist, and every API address asked with a method it does not take.
// About 470 generated requests against a production server of its own, at
// most 8 in flight; fast-check draws them from a fixed seed, so a failure
// comes back on the next run (FUZZ_SEED=<n> explores other inputs).
//
// For every answer: never a 5xx. Input that is certainly wrong gets a clear
// 4xx, in the {"errors": {...}} shape on the API. Afterwards the server still
// answers normally and the database holds nothing half-written.
import fc from "fast-check";
import { describe, it } from "vitest";
import { ANY, status, WRONG, type Case, type Ctx } from "../support/fuzz/cases";
import { fuzzTarget } from "../support/fuzz/run";
import { fileContents, seedSharedFiles, startMultipart, type MultipartUpload, type SharedFiles } from "../support/fuzz/world";
import { decoded, draw, forgedCookie, idOf, maybeRow, notAnId, text, wellFormed } from "../support/fuzz/values";

const fuzz = fuzzTarget("of the site's addresses", { minRequests: 380 });

function buildCases(w: SharedFiles & { origin: string; multipartA: MultipartUpload }): Case[] {
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  const A = w.multipartA;

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

  const allUploadIds = w.uploads.map((u) => u.id);

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

describe("the site's addresses under generated input", () => {
  it(
    "lists, pages and media files with odd queries, missing addresses and wrong methods: no 5xx, a clear 4xx for wrong input, nothing half-written",
    {
      timeout: 170_000,
    },
    async () => {
      const shared = await seedSharedFiles(fuzz, await fileContents());
      const multipartA = await startMultipart(fuzz);
      await fuzz.fuzz(() => buildCases({ ...shared, origin: fuzz.origin, multipartA }));
      const signed = await fuzz.stillAnswers();
      fuzz.databaseIsWhole(signed);
    },
  );
});
