// "Remember with us" called as Remix calls it: the form on /follow (as a
// browser without JavaScript posts it), POST /api/follow and the link in the
// confirmation e-mail, against a real SMTP server (parsed back).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "Memorial <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { followers, mailOutbox } from "../../db/schema";
import { db } from "~/platform/db.server";
import { resetSubmissionLimits } from "~/platform/submission-limit.server";
import { smtpTransport } from "~/mail/transport.server";
import { MailSender } from "~/mail/sender.server";
import * as apiFollow from "~/routes/api.follow";
import * as followPage from "~/routes/follow";
import * as confirmPage from "~/routes/follow_.$token";
import { answer } from "../support/route-calls";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";

const ORIGIN = "http://memorial.test";
const context = { clientIp: "10.61.0.1" };
let smtp: TestSmtpServer;

const sendAll = async () => {
  const sender = new MailSender({ transport: smtpTransport(smtp.url) });
  while ((await sender.runOnce()) > 0);
};

const postJson = (body: unknown, method = "POST") =>
  answer(() =>
    apiFollow.action({
      request: new Request(`${ORIGIN}/api/follow`, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
      params: {},
      context,
    } as never),
  );

const postForm = (fields: [string, string][]) =>
  answer(() =>
    followPage.action({
      request: new Request(`${ORIGIN}/follow`, { method: "POST", body: new URLSearchParams(fields) }),
      params: {},
      context,
    } as never),
  );

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(() => {
  db.delete(mailOutbox).run();
  db.delete(followers).run();
  resetSubmissionLimits();
  smtp.received.length = 0;
});

describe("POST /api/follow", () => {
  it("answers 202 and queues one confirmation, and the same 202 for an address already asked for", async () => {
    const body = { name: "Ann Lee", email: "ann@example.com", topics: ["service", "new", "reminders"] };
    const first = await postJson(body);
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({
      message: "If the address is right, an e-mail with a link is on its way. Nothing more will be sent until you open it.",
    });
    const again = await postJson({ ...body, topics: ["new"] });
    expect([again.status, await again.text()]).toEqual([202, await (await postJson(body)).text()]);
    await sendAll();
    expect(smtp.received.map((mail) => mail.to)).toEqual([["ann@example.com"]]);
  });

  it("refuses what is not a request in the form's words, and queues nothing", async () => {
    const refused = await postJson({ name: "", email: "ann@example.com, bo@example.com", topics: ["gossip"] });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      errors: {
        name: ["Name is required"],
        email: ["Valid email is required"],
        topics: ["Choose at least one thing to hear about: service, new, reminders"],
      },
    });
    expect((await postJson({ name: "Ann", email: "ann@example.com", topics: [] })).status).toBe(400);
    expect((await postJson({ name: "Ann", email: "ann@example.com" })).status).toBe(400);
    expect(db.select().from(followers).all()).toHaveLength(0);
    expect((await postJson({}, "PUT")).status).toBe(405);
  });

  it("answers 429 once the network has sent its allowance", async () => {
    let status = 202;
    for (let i = 0; i < 200 && status === 202; i++) {
      status = (await postJson({ name: "Bot", email: `bot${i}@example.com`, topics: ["new"] })).status;
    }
    expect(status).toBe(429);
  });
});

describe("the form at /follow, without JavaScript", () => {
  it("goes to 'Check your e-mail', and the link in the e-mail confirms", async () => {
    const sent = await postForm([
      ["name", "Bo Chen"],
      ["email", "bo@example.com"],
      ["topics", "new"],
    ]);
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toBe("/follow?sent");
    await sendAll();
    const link = smtp.received[0]!.links.find((href) => href.startsWith(`${ORIGIN}/follow/`))!;
    const token = new URL(link).pathname.split("/").pop()!;
    const page = await answer(() => confirmPage.loader({ request: new Request(link), params: { token }, context } as never));
    expect(page.status).toBe(200);
    // The topics go as their names; the page writes them in the visitor's language.
    expect(await page.json()).toMatchObject({ confirmed: { name: "Bo Chen", topics: ["new"] } });
    const unknown = await answer(() =>
      confirmPage.loader({ request: new Request(`${ORIGIN}/follow/x`), params: { token: "x".repeat(32) }, context } as never),
    );
    expect(unknown.status).toBe(404);
  });

  it("gives the form back with each message when it is refused; a bot's hidden field keeps nothing", async () => {
    const refused = await postForm([
      ["name", "Bo Chen"],
      ["email", "not an address"],
    ]);
    expect(refused.status).toBe(400);
    const { result } = (await refused.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } };
    expect(result.error.email).toEqual(["Valid email is required"]);
    expect(result.error.topics?.[0]).toMatch(/^Choose at least one thing to hear about/);
    expect(result.initialValue.name).toBe("Bo Chen");
    const bot = await postForm([
      ["name", "Bot"],
      ["email", "bot@example.com"],
      ["topics", "new"],
      ["website", "http://spam.example"],
    ]);
    expect(bot.status).toBe(303);
    expect(db.select().from(followers).all()).toHaveLength(0);
  });
});
