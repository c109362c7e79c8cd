// "Remember with us" by e-mail, sent to a real SMTP server (smtp-server on
// loopback) and parsed back: a request is written to once, with its link,
// and nothing else until that link is opened; then the service's news (one
// e-mail for a burst of saves), the weekly digest and the yearly reminders
// (the yahrzeit on the Hebrew date, after sunset or not) arrive at the
// family's time in the site's time zone, each with its one-click stop. The
// clock is the test's own: every call is given its `now`.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { followers, mailOutbox, mailSuppressions, memories, uploads } from "../../db/schema";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { resetSubmissionLimits } from "~/platform/submission-limit.server";
import { smtpTransport } from "~/mail/transport.server";
import { MailSender } from "~/mail/sender.server";
import { unsubscribe } from "~/mail/unsubscribe.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { submitMemory, updateMemory } from "~/guestbook/memory.server";
import { FollowSchema } from "~/remembrance/follow.schema";
import { confirmFollow, CONFIRM_FOR_MS, followerCounts, requestFollow } from "~/remembrance/followers.server";
import { nextFollowerMailAt, queueDueFollowerMail, SERVICE_NEWS_GATHER_MS, withServiceNews } from "~/remembrance/follower-news.server";
import { REMEMBRANCE_DEFAULTS } from "~/remembrance/remembrance.schema";
import { writeRemembrance } from "~/remembrance/remembrance.server";
import { updateSiteSettings } from "~/site/settings.server";
import { instantOf } from "~/site/service-time.server";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp-server";

const keeper = operator("keeper");
const ZONE = "America/Los_Angeles";
const at = (local: string) => instantOf(local, ZONE).getTime();
const source = { clientIp: "203.0.113.7" };
let smtp: TestSmtpServer;
let clock = 0;

async function sendAll() {
  const sender = new MailSender({ transport: smtpTransport(smtp.url), now: () => clock });
  let sent = 0;
  for (let round = 0; round < 20; round++) {
    const n = await sender.runOnce();
    sent += n;
    if (n === 0) break;
  }
  return sent;
}

const tokenOf = (mail: ReceivedMail, prefix: string) => {
  const link = mail.links.find((href) => new URL(href).pathname.startsWith(prefix));
  return link ? new URL(link).pathname.slice(prefix.length) : undefined;
};

/** Someone follows and opens the link of the e-mail that arrives: the mail is read back from the SMTP server. */
async function follow(name: string, email: string, topics: string[]) {
  requestFollow(FollowSchema.parse({ name, email, topics }), source, clock);
  const before = smtp.received.length;
  await sendAll();
  const mail = smtp.received.at(-1)!;
  expect(smtp.received.length).toBe(before + 1);
  expect(mail.to).toEqual([email]);
  expect(confirmFollow(tokenOf(mail, "/follow/")!, clock)).toMatchObject({ name });
  return mail;
}

const settle = async (queued: () => unknown) => {
  smtp.received.length = 0;
  queued();
  await sendAll();
  return [...smtp.received];
};

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  for (const table of [mailOutbox, followers, mailSuppressions, memories, uploads]) db.delete(table).run();
  resetSubmissionLimits();
  smtp.received.length = 0;
  clock = at("2026-12-01T10:00");
  const saved = await updateSiteSettings(
    {
      personName: "Josephine Marsh",
      timeZone: ZONE,
      birthDate: "1942-03-14",
      deathDate: "2026-01-09",
      serviceStartsAt: "2026-12-12T14:00",
      serviceEndsAt: "2026-12-12T16:00",
      venueName: "St Mary's Hall",
    },
    keeper,
  );
  expect(saved.ok).toBe(true);
  keeper.commit((tx) => writeRemembrance(tx, REMEMBRANCE_DEFAULTS, "keeper"));
});

describe("following", () => {
  it("writes once to the address given, with a link, and nothing else until it is opened", async () => {
    requestFollow(FollowSchema.parse({ name: "Ann Lee", email: "Ann@Example.com", topics: ["service", "new"] }), source, clock);
    // Asked again the same day (or by a stranger): no second e-mail.
    requestFollow(FollowSchema.parse({ name: "Ann", email: "ann@example.com ", topics: ["new"] }), source, clock + 60_000);
    await sendAll();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toEqual(["ann@example.com"]);
    expect(mail!.subject).toBe("Please confirm: e-mail from the memorial of Josephine Marsh");
    expect(mail!.text).toContain("New memories, photos and videos");
    expect(mail!.html).toContain("Yes, keep me posted");
    expect(mail!.header("list-unsubscribe")).toMatch(/^<http:\/\/memorial\.test\/unsubscribe\/[\w-]{32}>$/);
    expect(followerCounts()).toEqual({ following: 0, waiting: 1 });

    // Unconfirmed, it gets nothing the service's change would send.
    await updateSiteSettings({ venueName: "The Old Mill" }, keeper, withServiceNews);
    expect(db.select().from(mailOutbox).where(eq(mailOutbox.kind, "service-news")).all()).toHaveLength(0);

    const token = tokenOf(mail!, "/follow/")!;
    expect(confirmFollow("x".repeat(32), clock)).toBeUndefined();
    expect(confirmFollow(token, clock + CONFIRM_FOR_MS + 1)).toBeUndefined();
    // The latest request's name and choice are what is confirmed.
    expect(confirmFollow(token, clock)).toEqual({ name: "Ann", topics: ["new"] });
    expect(confirmFollow(token, clock)).toEqual({ name: "Ann", topics: ["new"] });
    expect(followerCounts()).toEqual({ following: 1, waiting: 0 });

    // A day later the address may be asked again: a confirmed follower's change waits for its own link.
    clock += 25 * 60 * 60_000;
    requestFollow(FollowSchema.parse({ name: "Ann Lee", email: "ann@example.com", topics: ["service"] }), source, clock);
    const [change] = await settle(() => undefined);
    expect(change?.subject).toMatch(/^Please confirm/);
    expect(db.select({ topics: followers.topics }).from(followers).get()?.topics).toEqual(["new"]);
  });

  it("is refused past the network's allowance, without a word about the address", () => {
    expect(() => {
      for (let i = 0; i < 1000; i++)
        requestFollow(FollowSchema.parse({ name: "Bot", email: `x${i}@example.com`, topics: ["new"] }), source, clock);
    }).toThrow(/Many messages have been sent from your network/);
    expect(db.select().from(followers).all().length).toBeLessThan(1000);
  });
});

describe("the service's news", () => {
  it("is one e-mail for a burst of saves, as things stand at the last, to followers of the service only", async () => {
    await follow("Ann Lee", "ann@example.com", ["service"]);
    await follow("Bo Chen", "bo@example.com", ["new"]);
    smtp.received.length = 0;
    await updateSiteSettings({ venueName: "The Old Mill" }, keeper, (tx, write) => withServiceNews(tx, write, clock));
    await updateSiteSettings({ serviceStartsAt: "2026-12-13T14:00", serviceEndsAt: "2026-12-13T16:00" }, keeper, (tx, write) =>
      withServiceNews(tx, write, clock + 10 * 60_000),
    );
    // Saved again without a change to the service: nothing more.
    await updateSiteSettings({ heroTitle: "Forever in our hearts" }, keeper, (tx, write) =>
      withServiceNews(tx, write, clock + 11 * 60_000),
    );
    clock += 12 * 60_000;
    await sendAll();
    expect(smtp.received).toHaveLength(0);
    clock += SERVICE_NEWS_GATHER_MS;
    await sendAll();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toEqual(["ann@example.com"]);
    expect(mail!.subject).toBe("Josephine Marsh: the Celebration of Life has changed");
    expect(mail!.text).toContain("The Old Mill");
    expect(mail!.text).toContain("Sunday, December 13th, 2026");
    expect(mail!.text).toContain("you asked to hear of changes to the service");
  });

  it("thanks followers of the service the day after it, once", async () => {
    await follow("Ann Lee", "ann@example.com", ["service"]);
    clock = at("2026-12-12T20:00");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    clock = at("2026-12-13T09:00");
    const [mail] = await settle(() => queueDueFollowerMail(clock));
    expect(mail?.subject).toBe("Josephine Marsh: thank you for remembering with us");
    expect(mail?.text).toContain("http://memorial.test/guestbook");
    clock += 60 * 60_000;
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
  });
});

describe("the weekly digest", () => {
  it("tells of what was published since the last, once a week at most, and only when there is something", async () => {
    await follow("Ann Lee", "ann@example.com", ["new"]);
    const published = (name: string) => {
      const { id } = submitMemory(MemoryApiSchema.parse({ name, email: "w@example.com", message: `${name} remembers the lake.` }));
      updateMemory(id, { status: "APPROVED" }, keeper, clock);
    };
    submitMemory(MemoryApiSchema.parse({ name: "Pending Pat", email: "p@example.com", message: "Still waiting for the family." }));
    clock = at("2026-12-02T09:00");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    published("Cara Diaz");
    clock = at("2026-12-03T09:00");
    const [digest] = await settle(() => queueDueFollowerMail(clock));
    expect(digest?.subject).toBe("Josephine Marsh: 1 new memory");
    expect(digest?.text).toContain("Cara Diaz wrote:");
    expect(digest?.text).not.toContain("Pending Pat");
    clock = at("2026-12-04T15:00");
    published("Dev Patel");
    clock = at("2026-12-05T09:00");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    expect(nextFollowerMailAt(clock)).toBeNull();
    clock = at("2026-12-10T09:00");
    expect(nextFollowerMailAt(at("2026-12-09T12:00"))).toBe(clock);
    const [next] = await settle(() => queueDueFollowerMail(clock));
    expect(next?.text).toContain("Dev Patel wrote:");
    expect(next?.text).not.toContain("Cara Diaz");
  });
});

describe("the yearly reminders", () => {
  const remindOf = (choice: Parameters<typeof writeRemembrance>[1]) => keeper.commit((tx) => writeRemembrance(tx, choice, "keeper"));

  it("go at the family's time, on the day and days before, with their words, and stop with one click", async () => {
    const mail = await follow("Ann Lee", "ann@example.com", ["reminders"]);
    remindOf({ anniversary: true, daysBefore: 7, onTheDay: true, sendAt: "08:30", words: "Light a candle with us." });
    clock = at("2027-01-02T08:29");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    expect(nextFollowerMailAt(clock)).toBe(at("2027-01-02T08:30"));
    clock = at("2027-01-02T08:30");
    const [before] = await settle(() => queueDueFollowerMail(clock));
    expect(before?.subject).toBe("Remembering Josephine Marsh: the anniversary is on Saturday, January 9, 2027");
    expect(before?.text).toContain("in 7 days, is the 1st anniversary of the death of Josephine Marsh");
    expect(before?.text).toContain("> Light a candle with us.");
    expect(before?.header("list-unsubscribe")).toBeDefined();
    clock = at("2027-01-09T10:00");
    const [onTheDay] = await settle(() => queueDueFollowerMail(clock));
    expect(onTheDay?.subject).toBe("Remembering Josephine Marsh today, on the anniversary");
    // Looked at again that day: nothing twice.
    clock += 60_000;
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);

    // One click on the link in any of them: no more, and the follower is gone.
    expect(unsubscribe(tokenOf(onTheDay!, "/unsubscribe/")!)).toBe("ann@example.com");
    expect(db.select().from(followers).all()).toHaveLength(0);
    expect(mail).toBeDefined();
    clock = at("2028-01-09T10:00");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
  });

  it("keep the yahrzeit on its Hebrew date: a death after sunset falls on the next Hebrew day", async () => {
    await follow("Ann Lee", "ann@example.com", ["reminders"]);
    remindOf({ yahrzeit: true, afterSunset: false, daysBefore: 0, onTheDay: true, sendAt: "09:00" });
    // 9 January 2026 was 20 Tevet 5786; its first yahrzeit, 20 Tevet 5787, is 30 December 2026.
    clock = at("2026-12-30T09:00");
    const [before] = await settle(() => queueDueFollowerMail(clock));
    expect(before?.text).toContain("the yahrzeit of Josephine Marsh (20th of Tevet, 5787)");
    expect(before?.text).toContain("begins at sunset the evening before");

    remindOf({ afterSunset: true });
    clock = at("2026-12-30T10:00");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    clock = at("2026-12-31T09:00");
    const [after] = await settle(() => queueDueFollowerMail(clock));
    expect(after?.subject).toBe("Remembering Josephine Marsh today, on the yahrzeit");
    expect(after?.text).toContain("(21st of Tevet, 5787)");
  });

  it("go only to followers of the reminders, and not when the family has turned them off", async () => {
    await follow("Bo Chen", "bo@example.com", ["new"]);
    remindOf({ birthday: true, daysBefore: 0, onTheDay: true });
    clock = at("2027-03-14T09:00");
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    await follow("Ann Lee", "ann@example.com", ["reminders"]);
    remindOf({ birthday: false });
    clock += 60_000;
    expect(await settle(() => queueDueFollowerMail(clock))).toHaveLength(0);
    remindOf({ birthday: true });
    clock += 60_000;
    const [birthday] = await settle(() => queueDueFollowerMail(clock));
    expect(birthday?.to).toEqual(["ann@example.com"]);
    expect(birthday?.text).toContain("the birthday of Josephine Marsh, who would have been 85");
  });
});
