// A fuzz test over HTTP of the upload dialog's API: signing, the disk
// driver's signed PUT address, completing, and the multipart calls for long
// videos. About 420 generated requests against a production server of its
// own, at most 8 in flight; fast-check draws them from a fixed seed, so a
// failure comes back on the next run (FUZZ_SEED=<n> explores other inputs).
//
// For every answer: never a 5xx. Input that is certainly wrong gets a clear
// 4xx, in the {"errors": {...}} shape. Afterwards the server still answers
// normally (a multipart upload can still be aborted) and the database holds
// nothing half-written.
import fc from "fast-check";
import { describe, it } from "vitest";
import { jsonBody, jsonVerdict, PARTS_CAP } from "../support/fuzz/bodies";
import { ANY, status, WRONG, type Case } from "../support/fuzz/cases";
import { fuzzTarget } from "../support/fuzz/run";
import { fileContents, seedDirectUploads, type DirectUploads, type FileContent } from "../support/fuzz/world";
import {
  blank,
  canonical,
  draw,
  field,
  FILE_NAMES,
  notAnId,
  notText,
  notTextOrNull,
  OMIT,
  pathAndQuery,
  plausible,
  text,
  tooLong,
  wellFormed,
} from "../support/fuzz/values";

const fuzz = fuzzTarget("of the uploads API", { minRequests: 340 });

function buildCases(w: DirectUploads & { origin: string; contents: FileContent[] }): Case[] {
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);

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

  return cases;
}

describe("the upload API under generated input", () => {
  it(
    "signing, the signed PUT, completing and the multipart calls: no 5xx, a clear 4xx for wrong input, nothing half-written",
    {
      timeout: 170_000,
    },
    async () => {
      const { png, contents } = await fileContents();
      const uploads = await seedDirectUploads(fuzz, png);
      await fuzz.fuzz(() => buildCases({ ...uploads, origin: fuzz.origin, contents }));
      const signed = await fuzz.stillAnswers();
      // A multipart upload left alone by the fuzz can still be aborted.
      const { multipartB } = uploads;
      await fuzz.must(
        {
          endpoint: "DELETE /api/uploads/s3/multipart/{uploadId}",
          method: "DELETE",
          url: `/api/uploads/s3/multipart/${multipartB.uploadId}?key=${encodeURIComponent(multipartB.key)}`,
          ctx: "anon",
        },
        200,
      );
      fuzz.databaseIsWhole(signed);
    },
  );
});
