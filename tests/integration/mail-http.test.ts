// E-mail from the production server (`node server/index.mjs` on the build)
// to a real SMTP server started here (smtp-server), read back with
// mailparser: its links answer, its unsubscribe link works without logging
// in (and never reaches the log), a mail server that is down costs the guest
// book nothing and its mail arrives once it is back, and a restart while
// mail is queued sends every message exactly once.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manageSites, postJson, request, scratchDir, startSite, type Site } from "../support/site-process";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp-server";

manageSites();

const ADMIN = { username: "keeper", password: "mail-test-password" };
const PUBLIC_URL = "http://memorial.test";
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

function siteEnv() {
  return {
    SMTP_URL: smtp.url,
    MAIL_FROM: "Memorial <memorial@memorial.test>",
    PUBLIC_URL,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  };
}

const cookieOf = (headers: Record<string, string | string[] | undefined>) =>
  ((headers["set-cookie"] as string[] | undefined) ?? []).map((cookie) => cookie.split(";")[0]!).join("; ");

/** Logs in through the API (the configured admin is made just after the server starts listening). */
async function logIn(site: Site): Promise<string> {
  for (let i = 0; ; i++) {
    const login = await postJson(site.port, "/api/admin/login", ADMIN);
    if (login.status === 200) return cookieOf(login.headers);
    if (i > 60) throw new Error(`login failed: ${login.status} ${login.body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const send = (site: Site, method: string, urlPath: string, body: unknown, cookie: string) =>
  request(site.port, method, urlPath, {
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Cookie: cookie },
  });

async function chooseEachItem(site: Site, cookie: string, email = "keeper@family.test") {
  const chosen = await send(site, "PATCH", "/api/admin/email", { email, mailChoice: "each" }, cookie);
  expect(chosen.status, chosen.body).toBe(200);
}

async function signGuestBook(site: Site, name: string, extra: Record<string, unknown> = {}) {
  const started = performance.now();
  const answer = await postJson(site.port, "/api/guestbook", {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    message: `I remember the lake with ${name}.`,
    ...extra,
  });
  expect(answer.status, answer.body).toBe(201);
  return { id: (JSON.parse(answer.body) as { id: number }).id, ms: performance.now() - started };
}

const pathOf = (href: string) => new URL(href).pathname;
const linkTo = (mail: ReceivedMail, pattern: RegExp) => mail.links.map(pathOf).find((p) => pattern.test(p));

/** The outbox as the site's own database holds it. */
function outboxRows(site: Site) {
  const file = new Database(path.join(site.dir, "memorial.db"), { readonly: true, fileMustExist: true });
  try {
    return file.prepare("select id, recipient, subject, sentAt, failedAt, attempts from mail_outbox order by id").all() as {
      id: number;
      subject: string;
      sentAt: number | null;
      attempts: number;
    }[];
  } finally {
    file.close();
  }
}

describe("e-mail from the running site", () => {
  it("links that answer 200 for an admin, an unsubscribe link that works without logging in, and a log without its token", async () => {
    smtp.received.length = 0;
    const site = await startSite(scratchDir(), siteEnv());
    const cookie = await logIn(site);
    await chooseEachItem(site, cookie);
    const { id } = await signGuestBook(site, "Cousin Ellen", { notifyWhenPublished: true });

    const [toFamily] = await smtp.waitFor(1);
    expect(toFamily!.to).toEqual(["keeper@family.test"]);
    expect(toFamily!.subject).toContain("Cousin Ellen");
    for (const link of [
      linkTo(toFamily!, /^\/admin\/memories\/\d+$/),
      linkTo(toFamily!, /^\/admin$/),
      linkTo(toFamily!, /^\/admin\/email$/),
    ]) {
      expect(link).toBeDefined();
      expect((await request(site.port, "GET", link!, { headers: { Cookie: cookie } })).status, link).toBe(200);
    }
    expect(linkTo(toFamily!, /^\/admin\/memories\/\d+$/)).toBe(`/admin/memories/${id}`);

    // Published by the family: the visitor who asked is told, once, with a link that answers anyone.
    expect((await send(site, "PATCH", `/api/admin/memories/${id}`, { status: "APPROVED" }, cookie)).status).toBe(200);
    const [, toVisitor] = await smtp.waitFor(2);
    expect(toVisitor!.to).toEqual(["cousin.ellen@example.com"]);
    expect((await request(site.port, "GET", linkTo(toVisitor!, /^\/guestbook$/)!)).status).toBe(200);

    // The family's unsubscribe link: a page without logging in, then the button.
    const unsubscribe = linkTo(toFamily!, /^\/unsubscribe\//)!;
    const token = unsubscribe.split("/").pop()!;
    const page = await request(site.port, "GET", unsubscribe);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Stop these e-mails");
    const pressed = await request(site.port, "POST", unsubscribe, {
      body: "",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: `http://127.0.0.1:${site.port}`,
        Host: `127.0.0.1:${site.port}`,
      },
    });
    expect([pressed.status, pressed.headers.location]).toEqual([302, unsubscribe]);
    expect((await request(site.port, "GET", unsubscribe)).body).toContain("No more e-mail");
    await signGuestBook(site, "Uncle Joe");
    const tab = JSON.parse((await request(site.port, "GET", "/api/admin/email", { headers: { Cookie: cookie } })).body);
    expect(tab).toMatchObject({ preferences: { mailChoice: "none", unsubscribed: true }, outbox: { waiting: 0 } });

    expect(site.output()).toContain("/unsubscribe/[redacted]");
    expect(site.output()).not.toContain(token);
  });

  it("a mail server that is down costs the guest book nothing; its mail arrives once it is back", async () => {
    smtp.received.length = 0;
    await smtp.down();
    const site = await startSite(scratchDir(), siteEnv());
    try {
      const cookie = await logIn(site);
      await chooseEachItem(site, cookie);
      const signed = [];
      for (const name of ["Ann", "Bo", "Cy"]) signed.push(await signGuestBook(site, name));
      for (const { ms } of signed) expect(ms).toBeLessThan(5000);

      // The sender tried, failed, and waits; the panel says why.
      let tab: { outbox: { waiting: number; problems: { id: number; lastError: string }[] } };
      for (;;) {
        tab = JSON.parse((await request(site.port, "GET", "/api/admin/email", { headers: { Cookie: cookie } })).body);
        if (tab.outbox.problems.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(tab.outbox.waiting).toBe(3);
      expect(tab.outbox.problems[0]!.lastError).toMatch(/ECONNRESET|ECONNECTION|closed/i);

      await smtp.up();
      // The family says try again now (else the next try comes by itself, 30 s after the failure, doubling to an hour).
      expect((await send(site, "POST", `/api/admin/outbox/${tab.outbox.problems[0]!.id}/retry`, {}, cookie)).status).toBe(204);
      const mails = await smtp.waitFor(3);
      expect(mails.map((mail) => mail.subject).sort()).toEqual(
        ["Ann", "Bo", "Cy"].map((name) => `Our Beloved Friend: a new memory from ${name} waits for you`),
      );
    } finally {
      await smtp.up().catch(() => {});
    }
  });

  it("a restart while mail is queued sends every message exactly once", async () => {
    smtp.received.length = 0;
    const dir = scratchDir();
    const first = await startSite(dir, siteEnv());
    const cookie = await logIn(first);
    await chooseEachItem(first, cookie);
    smtp.hold();
    for (const name of ["Ann", "Bo", "Cy", "Dee"]) await signGuestBook(first, name);
    // The first message is at the SMTP server, waiting for its answer, when the site is told to stop.
    await smtp.waitForHeld(1);
    first.child.kill("SIGTERM");
    for (let i = 0; !first.output().includes("SIGTERM received"); i++) {
      if (i > 200) throw new Error(first.output());
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    smtp.release();
    expect(await first.exited).toEqual({ code: 0, signal: null });
    const afterStop = outboxRows(first);
    expect(afterStop.filter((row) => row.sentAt !== null)).toHaveLength(1);
    expect(afterStop).toHaveLength(4);

    const second = await startSite(dir, siteEnv());
    const mails = await smtp.waitFor(4);
    for (;;) {
      if (outboxRows(second).every((row) => row.sentAt !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(mails).toHaveLength(4);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(
      ["Ann", "Bo", "Cy", "Dee"].map((name) => `Our Beloved Friend: a new memory from ${name} waits for you`),
    );
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(4);
    expect(outboxRows(second).map((row) => row.attempts)).toEqual([1, 1, 1, 1]);
  });

  it(
    "while the mail server is away, at most 500 messages wait: the newest, the oldest shown as set aside",
    { timeout: 120_000 },
    async () => {
      // A mail server that never answers: nothing listens on port 1.
      const site = await startSite(scratchDir(), { ...siteEnv(), SMTP_URL: "smtp://127.0.0.1:1" });
      const cookie = await logIn(site);
      await chooseEachItem(site, cookie);
      for (let i = 0; i < 505; i++) {
        const answer = await postJson(site.port, "/api/guestbook", {
          name: `Guest ${i}`,
          email: `guest${i}@example.com`,
          message: `Memory number ${i} of many.`,
        });
        expect(answer.status, answer.body).toBe(201);
      }
      const file = new Database(path.join(site.dir, "memorial.db"), { readonly: true, fileMustExist: true });
      try {
        const counts = file
          .prepare(
            "select count(*) as total, sum(failedAt is null and sentAt is null) as waiting, sum(failedAt is not null and text is null and lastError like 'Not sent: more e-mails waited%') as setAside from mail_outbox",
          )
          .get() as { total: number; waiting: number; setAside: number };
        expect(counts.waiting).toBe(500);
        expect(counts.setAside).toBe(counts.total - 500);
        const newest = file.prepare("select subject from mail_outbox where failedAt is null order by id desc limit 1").get() as {
          subject: string;
        };
        expect(newest.subject).toContain("Guest 504");
      } finally {
        file.close();
      }
      // The E-mail tab says so.
      const tab = JSON.parse((await request(site.port, "GET", "/api/admin/email", { headers: { Cookie: cookie } })).body) as {
        outbox: { waiting: number; problems: { lastError: string }[] };
      };
      expect(tab.outbox.waiting).toBe(500);
      expect(tab.outbox.problems.some((problem) => problem.lastError.startsWith("Not sent: more e-mails waited"))).toBe(true);
    },
  );
});
