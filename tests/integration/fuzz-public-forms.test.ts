// A fuzz test over HTTP of what visitors send: the guest book, the RSVP, the
// share form, the voice form and the Karen Mode toggle, as plain forms
// (url-encoded or multipart) and, for the guest book, the RSVP and the voice
// form, their API twins; and the JSON of "Remember with us" and of lighting a
// candle. About 780 generated requests against a production server of its own, at
// most 8 in flight; fast-check draws them from a fixed seed, so a failure
// comes back on the next run (FUZZ_SEED=<n> explores other inputs).
//
// For every answer: never a 5xx. Input that is certainly wrong (each generator
// knows which of its values are) gets a clear 4xx, in the {"errors": {...}}
// shape on the API. Afterwards the server still answers normally and the
// database holds nothing half-written. The other targets: fuzz-uploads-api,
// fuzz-admin and fuzz-addresses.
import fc from "fast-check";
import { describe, it } from "vitest";
import { formBody, formVerdict, jsonBody, jsonVerdict, multipart, ODD_PARTS, type Part } from "../support/fuzz/bodies";
import { ANY, status, WRONG, type Case, type Expectation } from "../support/fuzz/cases";
import { fuzzTarget } from "../support/fuzz/run";
import { fileContents, type FileContent } from "../support/fuzz/world";
import {
  blank,
  draw,
  email,
  field,
  FILE_NAMES,
  hexTag,
  message,
  noEmailText,
  notText,
  notTextOrNull,
  OMIT,
  plausible,
  sameSite,
  shortMessage,
  someText,
  text,
  tooLong,
  type Gen,
} from "../support/fuzz/values";

const fuzz = fuzzTarget("of the public forms", { minRequests: 580 });

function buildCases(w: { origin: string; contents: FileContent[] }): Case[] {
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

  // --- POST /api/follow (this server sends no e-mail: a fine request is a 404 saying so) ---
  const followFields = fc.record({
    name: field(someText(100), fc.oneof(fc.constant(OMIT), notTextOrNull, blank, tooLong(100))),
    email: field(email, fc.oneof(fc.constant(OMIT), notTextOrNull, blank, noEmailText)),
    topics: field(
      fc.subarray(["service", "new", "reminders"], { minLength: 1 }),
      fc.constantFrom(OMIT, [], ["gossip"], ["service", "everything"], 7, {}, null),
    ),
  });
  for (const [body, extra] of draw("api follow", fc.tuple(jsonBody(followFields, ["name"]), same), 80)) {
    add({
      endpoint: "POST /api/follow",
      method: "POST",
      url: "/api/follow",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      ...jsonVerdict(body, ANY),
    });
  }

  // --- POST /api/candles ------------------------------------------------------------------
  const candleFields = fc.record({
    name: field(fc.oneof(fc.constant(OMIT), text(100)), fc.oneof(notText, tooLong(100))),
    message: field(fc.oneof(fc.constant(OMIT), text(140)), fc.oneof(notText, tooLong(140))),
  });
  for (const [body, extra] of draw("api candles", fc.tuple(jsonBody(candleFields, ["message"], 8 * 1024), same), 80)) {
    add({
      endpoint: "POST /api/candles",
      method: "POST",
      url: "/api/candles",
      ctx: "anon",
      headers: withHeaders(body, extra),
      body: body.data,
      ...jsonVerdict(body, ANY),
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

  // --- /voices and /api/voices (the voice form, multipart with one recording) ------------------
  // None of the files here is a recording: every form that reaches registration is refused (415).
  const recordingParts = fc.record({
    field: fc.constantFrom("recording", "recording", "recording", "files", ""),
    filename: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FILE_NAMES) }, { weight: 1, arbitrary: text(20) }),
    type: fc.constantFrom("audio/mp4", "audio/webm;codecs=opus", "image/jpeg", "application/octet-stream", "", null),
    content: fc.nat(w.contents.length - 1),
  });
  const voiceForm = fc.record({
    name: field(someText(60), fc.oneof(fc.constant(OMIT), blank, tooLong(2048, 3000))),
    email: plausible(fc.oneof(fc.constant(OMIT), email, someText(30))),
    line: plausible(fc.oneof(fc.constant(OMIT), someText(300), tooLong(300, 700))),
    canDisplay: plausible(fc.constantFrom(OMIT, "on", "off", "")),
    notify: plausible(fc.constantFrom(OMIT, "on", "")),
    from: plausible(fc.constantFrom(OMIT, "/guestbook", "/share", "/voices", "https://elsewhere.example/", "//x", "")),
    website: honeypot,
    recordings: fc.oneof(
      { weight: 1, arbitrary: fc.array(recordingParts, { maxLength: 0 }) },
      { weight: 6, arbitrary: fc.array(recordingParts, { minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.array(recordingParts, { minLength: 2, maxLength: 3 }) },
    ),
    mode: fc.constantFrom("ok", "ok", "ok", "ok", "ok", "ok", "no-boundary", "truncated", "wrong-type"),
    api: fc.boolean(),
    tag: hexTag,
  });
  for (const [form, extra] of draw("form voices", fc.tuple(voiceForm, same), 50)) {
    const textParts: Part[] = [];
    for (const name of ["from", "name", "email", "line", "canDisplay", "notify", "website"] as const) {
      const value = form[name].value;
      if (value !== OMIT) textParts.push({ name, value: String(value) });
    }
    const files: Part[] = form.recordings.map((f) => ({
      name: f.field,
      filename: f.filename,
      type: f.type,
      data: w.contents[f.content]!.data,
    }));
    const boundary = `----voice${form.tag}`;
    let data = multipart([...files, ...textParts], boundary);
    let type = `multipart/form-data; boundary=${boundary}`;
    if (form.mode === "no-boundary") type = "multipart/form-data";
    if (form.mode === "wrong-type") type = "application/x-www-form-urlencoded";
    if (form.mode === "truncated") data = data.subarray(0, Math.max(1, Math.floor(data.length / 2)));
    const url = form.api ? "/api/voices" : "/voices";
    add({
      endpoint: `POST ${url} (multipart)`,
      method: "POST",
      url,
      ctx: "anon",
      headers: { ...extra, "Content-Type": type },
      body: data,
      // No recording here is one: refused, unless a bot is thanked (and nothing kept).
      expect: form.mode === "wrong-type" ? status(415) : form.mode === "ok" && form.website.value === "http://spam.example/" ? ANY : WRONG,
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

  return cases;
}

describe("the public forms under generated input", () => {
  it(
    "the guest book, RSVP, share and Karen Mode forms and the guest book, RSVP, follow and candle API: no 5xx, a clear 4xx for wrong input, nothing half-written",
    {
      timeout: 170_000,
    },
    async () => {
      const { contents } = await fileContents();
      await fuzz.fuzz(() => buildCases({ origin: fuzz.origin, contents }));
      const signed = await fuzz.stillAnswers();
      fuzz.databaseIsWhole(signed);
    },
  );

  it("a body refused as too large does not take its connection down: the next request on it is answered", { timeout: 60_000 }, async () => {
    await fuzz.connectionSurvivesRefusal(
      "POST /rsvp (form)",
      "/rsvp",
      "application/x-www-form-urlencoded",
      Buffer.from(`notes=${"m".repeat(1024 * 1024)}`),
    );
    await fuzz.connectionSurvivesRefusal(
      "POST /api/guestbook",
      "/api/guestbook",
      "application/json",
      Buffer.from(JSON.stringify({ message: "m".repeat(1024 * 1024) })),
    );
  });
});
