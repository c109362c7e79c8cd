// When the site next has e-mail to send: the outbox's next message, the
// admins' daily summaries and the sources other rooms register. The server
// stays up on Fly while one is due within the hour, and the sender loop
// wakes at the minute it is due. Fake clocks only.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { adminUsers, followers, mailOutbox } from "../../db/schema";
import { db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import { queueDueSummaries } from "~/mail/notifications.server";
import { queueMail } from "~/mail/outbox.server";
import { mailDueWithin, nextMailDueAt, registerMailSchedule } from "~/mail/schedule.server";
import { MailSender } from "~/mail/sender.server";
import type { MailTransport, OutgoingMail } from "~/mail/transport.server";
import { instantOf } from "~/site/service-time.server";
import { getSiteSettings, STORED_KEYS, setStoredValue } from "~/site/settings.server";
import { siteSettings } from "../../db/schema";
// The server's background work registers the followers' e-mail (reminders, digests) as it is imported.
import "~/server/background.server";

const MINUTE = 60_000;
const local = (wallClock: string) => instantOf(wallClock, getSiteSettings().timeZone).getTime();
const cleanups: (() => void)[] = [];

afterEach(() => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) cleanup();
  db.delete(mailOutbox).run();
  db.update(adminUsers).set({ mailChoice: "none", digestSentFor: null }).run();
});

async function dailyAdmin(username: string, digestTime: string) {
  await upsertAdmin(username, `${username}-password`);
  db.update(adminUsers)
    .set({ email: `${username}@family.test`, mailChoice: "daily", digestTime, digestSentFor: null })
    .where(eq(adminUsers.username, username))
    .run();
}

const queueNote = (recipient: string, now: number, holdMs?: number) =>
  db.transaction((tx) =>
    queueMail(tx, { kind: "note", recipient, holdMs, compose: () => ({ subject: "A note", text: "A note", html: "<p>A note</p>" }) }, now),
  );

describe("when e-mail is next due", () => {
  it("is never, with nothing waiting and nobody choosing a summary", () => {
    expect(nextMailDueAt(local("2026-03-02T07:10"))).toBeNull();
    expect(mailDueWithin(60 * MINUTE, local("2026-03-02T07:10"))).toBe(false);
  });

  it("is an admin's daily summary at her time in the site's time zone, then tomorrow's once today's is made", async () => {
    await dailyAdmin("summary-keeper", "08:00");
    await dailyAdmin("late-keeper", "21:30");
    const now = local("2026-03-02T07:10");
    expect(nextMailDueAt(now)).toBe(local("2026-03-02T08:00"));
    expect(mailDueWithin(60 * MINUTE, now)).toBe(true);
    expect(mailDueWithin(45 * MINUTE, now)).toBe(false);

    queueDueSummaries(local("2026-03-02T08:00"));
    expect(nextMailDueAt(local("2026-03-02T08:01"))).toBe(local("2026-03-02T21:30"));
    queueDueSummaries(local("2026-03-02T21:30"));
    expect(nextMailDueAt(local("2026-03-02T21:31"))).toBe(local("2026-03-03T08:00"));
  });

  it("is tomorrow's time across a change of the clocks", async () => {
    await dailyAdmin("spring-keeper", "08:00");
    // The night the clocks go forward in the United States (the site's default zone is Los Angeles).
    queueDueSummaries(local("2026-03-07T09:00"));
    expect(nextMailDueAt(local("2026-03-07T09:01"))).toBe(local("2026-03-08T08:00"));
  });

  it("is the outbox's next message: one held back, a retry, one a sender holds", () => {
    const now = local("2026-03-02T07:10");
    queueNote("held@example.com", now, 2 * MINUTE);
    expect(nextMailDueAt(now)).toBe(now + 2 * MINUTE);
    queueNote("now@example.com", now);
    expect(nextMailDueAt(now)).toBe(now);
    // The message is on its way: due again when its claim runs out, should the sender have stopped.
    db.update(mailOutbox)
      .set({ claimedUntil: new Date(now + 5 * MINUTE) })
      .where(eq(mailOutbox.recipient, "now@example.com"))
      .run();
    expect(nextMailDueAt(now)).toBe(now + 2 * MINUTE);
    // Sent or given up on, a message waits for nothing.
    db.update(mailOutbox)
      .set({ sentAt: new Date(now) })
      .run();
    expect(nextMailDueAt(now)).toBeNull();
  });

  it("takes the earliest of the registered sources; a failing one is logged and left out", () => {
    const now = local("2026-03-02T07:10");
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    cleanups.push(registerMailSchedule("far", { nextDueAt: () => now + 300 * MINUTE }));
    cleanups.push(registerMailSchedule("none", { nextDueAt: () => null }));
    cleanups.push(
      registerMailSchedule("broken", {
        nextDueAt: () => {
          throw new Error("no such table");
        },
      }),
    );
    expect(nextMailDueAt(now)).toBe(now + 300 * MINUTE);
    const removeNear = registerMailSchedule("near", { nextDueAt: () => now + 20 * MINUTE });
    expect(nextMailDueAt(now)).toBe(now + 20 * MINUTE);
    expect(mailDueWithin(60 * MINUTE, now)).toBe(true);
    removeNear();
    expect(nextMailDueAt(now)).toBe(now + 300 * MINUTE);
    expect(error.mock.calls.map(([line]) => String(line)).join("\n")).toContain('"source":"broken"');
    error.mockRestore();
  });

  it("keeps the machine up for e-mail overdue by minutes, not for a time that stays past for hours", () => {
    const now = local("2026-03-02T07:10");
    let dueAt = now - 5 * MINUTE;
    cleanups.push(registerMailSchedule("stuck", { nextDueAt: () => dueAt }));
    expect(mailDueWithin(60 * MINUTE, now)).toBe(true);
    dueAt = now - 3 * 60 * MINUTE;
    expect(nextMailDueAt(now)).toBe(dueAt);
    expect(mailDueWithin(60 * MINUTE, now)).toBe(false);
  });
});

describe("the followers' e-mail", () => {
  it("is due at the family's sending time on the day of a yearly reminder", () => {
    db.transaction((tx) => {
      tx.insert(siteSettings)
        .values({ key: "deathDate", value: "2024-03-02" })
        .onConflictDoUpdate({ target: siteSettings.key, set: { value: "2024-03-02" } })
        .run();
      setStoredValue(tx, STORED_KEYS.remembrance, { anniversary: true, onTheDay: true, daysBefore: 0, sendAt: "09:30" }, "test");
    });
    const now = local("2026-03-02T07:10");
    expect(nextMailDueAt(now)).toBeNull();
    db.insert(followers)
      .values({ email: "ruth@example.com", name: "Ruth", topics: ["reminders"], confirmedAt: new Date(now) })
      .run();
    expect(nextMailDueAt(now)).toBe(local("2026-03-02T09:30"));
    db.delete(followers).run();
    db.delete(siteSettings).run();
  });
});

describe("the sender loop", () => {
  it("queues and sends a scheduled e-mail at its minute, with nothing else waking it", async () => {
    vi.useFakeTimers({ now: local("2026-03-02T08:47") + 30_000 });
    const dueAt = local("2026-03-02T09:00");
    let queued = false;
    cleanups.push(
      registerMailSchedule("reminders", {
        nextDueAt: () => (queued ? null : dueAt),
        queueDue: (now) => {
          if (queued || now < dueAt) return;
          queued = true;
          queueNote("follower@example.com", now);
        },
      }),
    );
    const sent: { at: number; mail: OutgoingMail }[] = [];
    const transport: MailTransport = { send: async (mail) => void sent.push({ at: Date.now(), mail }), close: () => {} };
    const sender = new MailSender({ transport });
    cleanups.push(() => void sender.stop());
    sender.start();
    await vi.advanceTimersByTimeAsync(12 * MINUTE + 29_000);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.map(({ mail }) => mail.to)).toEqual(["follower@example.com"]);
    expect(sent[0]!.at - dueAt).toBeLessThan(2_000);
  });
});
