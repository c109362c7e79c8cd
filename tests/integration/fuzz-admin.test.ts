// A fuzz test over HTTP of what the family uses: the admin API (login,
// moderation, rotation, poems, lists and CSV exports) with and without a
// session, and the admin's no-JavaScript forms (login, logout, moderation,
// poems). About 880 generated requests against a production server of its
// own, at most 8 in flight; fast-check draws them from a fixed seed, so a
// failure comes back on the next run (FUZZ_SEED=<n> explores other inputs).
//
// For every answer: never a 5xx. Input that is certainly wrong gets a clear
// 4xx, in the {"errors": {...}} shape on the API, or, for the moderation
// forms, the redirect with an "Error" toast they are built around; a form
// without a session goes back to the login card. The login is only ever sent
// bodies of the wrong shape, never a wrong password (five would lock logins).
// Afterwards the server still answers normally and the database holds
// nothing half-written.
import fc from "fast-check";
import { describe, it } from "vitest";
import { formBody, formVerdict, jsonBody, jsonVerdict, type FormBody, type JsonBody } from "../support/fuzz/bodies";
import { ANY, FAILED_TOAST, LOGIN, status, WRONG, type Answer, type Case, type Expectation } from "../support/fuzz/cases";
import { ADMIN, fuzzTarget } from "../support/fuzz/run";
import { fileContents, seedMemories, seedPoems, seedRsvp, seedSharedFiles, type SharedFiles } from "../support/fuzz/world";
import {
  blank,
  canonical,
  draw,
  field,
  forgedCookie,
  idOf,
  maybeRow,
  message,
  nasty,
  notTextOrNull,
  OMIT,
  plausible,
  sameSite,
  someText,
  text,
  tooLong,
  wellFormed,
  type Gen,
} from "../support/fuzz/values";

const fuzz = fuzzTarget("of the admin API and forms", { minRequests: 700 });

interface AdminWorld extends SharedFiles {
  origin: string;
  memoryIds: number[];
  poemIds: number[];
}

function buildCases(w: AdminWorld): Case[] {
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  const same = sameSite(w.origin);
  const withHeaders = (body: { headers: Record<string, string> }, extra: Record<string, string>) => ({ ...extra, ...body.headers });

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

  return cases;
}

describe("the admin API and forms under generated input", () => {
  it(
    "login, moderation, rotation, poems, lists and exports, with and without a session: no 5xx, a clear 4xx or the Error toast for wrong input, nothing half-written",
    {
      timeout: 170_000,
    },
    async () => {
      const memoryIds = await seedMemories(fuzz);
      await seedRsvp(fuzz);
      const poemIds = await seedPoems(fuzz);
      const shared = await seedSharedFiles(fuzz, await fileContents());
      await fuzz.fuzz(() => buildCases({ ...shared, origin: fuzz.origin, memoryIds, poemIds }));
      const signed = await fuzz.stillAnswers();
      fuzz.databaseIsWhole(signed);
    },
  );
});
