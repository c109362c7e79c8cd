// E-mail on time with nobody visiting (docs/decisions/034-waking-on-time.md):
// the production server with idle exit on (a minute here, 15 on Fly), a real
// SMTP server, and only /healthz asked for, as Fly's health check and the
// hourly wake-up ask for it. The server stops when nothing is due within the
// hour; started again by the wake-up with a daily summary and a follower's
// reminder of the anniversary due a few minutes later, it stays up past its
// idle minute, sends both at their minute, and then stops. Real waits of a few minutes, bounded; the test asserts what
// happens (the order of sending and stopping, never early), never how fast:
// the timing itself is tested on fake clocks (tests/unit/idle-exit.test.ts,
// tests/unit/mail-schedule.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookieFor, manageSites, postJson, request, scratchDir, startSite } from "../support/site-process";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server";
import { addFollower, localDay, minuteAhead, nobodyVisits, setSiteSetting, wakeUnvisited } from "../support/unvisited-site";

manageSites();

const ADMIN = { username: "keeper", password: "waking-test-password" };
const FAMILY = "keeper@family.test";
const FOLLOWER = "ruth@example.com";
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

const siteEnv = () => ({
  IDLE_EXIT_MINUTES: "1",
  SMTP_URL: smtp.url,
  MAIL_FROM: "Memorial <memorial@memorial.test>",
  PUBLIC_URL: "http://memorial.test",
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
});

describe("e-mail on time while the machine sleeps", () => {
  it(
    "woken with nobody visiting, a summary and a reminder due in a few minutes are sent at their minute, then the server stops",
    { timeout: 600_000 },
    async () => {
      const dir = scratchDir();

      // The family chooses a daily summary (hours away), and a memory waits for it.
      const setup = await startSite(dir, siteEnv());
      const cookie = await adminCookieFor(setup, ADMIN);
      const settings = await request(setup.port, "GET", "/api/admin/settings", { headers: { Cookie: cookie } });
      const { timeZone } = JSON.parse(settings.body) as { timeZone: string };
      const chosen = await request(setup.port, "PATCH", "/api/admin/email", {
        body: JSON.stringify({ email: FAMILY, mailChoice: "daily", digestTime: minuteAhead(180, timeZone).hhmm }),
        headers: { "Content-Type": "application/json", Cookie: cookie },
      });
      expect(chosen.status, chosen.body).toBe(200);
      const signed = await postJson(setup.port, "/api/guestbook", {
        name: "Cousin Ellen",
        email: "ellen@example.com",
        message: "The lake in June.",
      });
      expect(signed.status, signed.body).toBe(201);

      // Nothing due within the hour: it stops by itself, and nothing was sent.
      const evening = nobodyVisits(setup);
      expect(await evening.exited(180_000), setup.output()).not.toBeNull();
      expect(await setup.exited).toEqual({ code: 0, signal: null });
      expect(smtp.received).toEqual([]);

      // While the machine is stopped the summary's time comes near: a few minutes after
      // the wake-up, later than the minute a start nobody asked for stays up.
      const due = minuteAhead(2, timeZone);
      const woken = await wakeUnvisited(dir, siteEnv(), (database) => {
        database.prepare("update admin_users set digestTime = ?, digestSentFor = null where email = ?").run(due.hhmm, FAMILY);
        // And a reminder: the second anniversary of the death falls on that day, at the same minute.
        const day = localDay(due.at, timeZone);
        setSiteSetting(database, "deathDate", `${Number(day.slice(0, 4)) - 2}${day.slice(4)}`);
        setSiteSetting(database, "remembrance", { anniversary: true, onTheDay: true, daysBefore: 0, sendAt: due.hhmm });
        addFollower(database, FOLLOWER, ["reminders"]);
      });

      const received = await smtp.waitFor(2, 330_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${woken.site.output()}`);
      });
      const arrived = Date.now();
      expect(woken.exitedAt(), woken.site.output()).toBeNull();
      expect(arrived).toBeGreaterThanOrEqual(due.at);
      const summary = received.find((mail) => mail.to.includes(FAMILY));
      expect(summary?.text).toContain("Cousin Ellen");
      const reminder = received.find((mail) => mail.to.includes(FOLLOWER));
      expect(reminder?.header("List-Unsubscribe")).toBeDefined();

      // Nothing due any more: it stops again, as after any start nobody asked for.
      expect(await woken.exited(180_000), woken.site.output()).not.toBeNull();
      expect(await woken.site.exited).toEqual({ code: 0, signal: null });
      expect(woken.site.output()).toContain("since a start no visitor asked for");
      expect(smtp.received).toHaveLength(2);
    },
  );
});
