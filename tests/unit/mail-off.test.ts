// Without SMTP_URL the site sends no e-mail: nothing is queued, the visitors
// are not offered an e-mail, and the E-mail tab says so.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminUsers, followers, memories } from "../../db/schema";
import { startAdminSession } from "~/admins/session.server";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import { queueDueSummaries } from "~/mail/notifications.server";
import { listOutbox, mailEnabled } from "~/mail/outbox.server";
import * as emailTab from "~/routes/admin.email";
import * as guestbook from "~/routes/guestbook";
import * as homePage from "~/routes/_index";
import * as apiFollow from "~/routes/api.follow";
import * as followPage from "~/routes/follow";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.70.0.1" };
let cookie: string;

beforeAll(async () => {
  await upsertAdmin("keeper", "the-right-password");
  const { id } = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  db.update(adminUsers).set({ email: "keeper@family.test", mailChoice: "each" }).where(eq(adminUsers.id, id)).run();
  cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username: "keeper" })).split(";")[0]!;
});

describe("a site without SMTP_URL", () => {
  it("queues no e-mail, offers visitors none, and says so in the E-mail tab", async () => {
    expect([config.SMTP_URL, mailEnabled()]).toEqual([undefined, false]);
    const page = await answer(() => guestbook.loader({ request: new Request(`${ORIGIN}/guestbook`), params: {}, context } as never));
    expect(((await page.json()) as { notifyOffered: boolean }).notifyOffered).toBe(false);
    const form = new URLSearchParams({
      name: "Ann",
      email: "ann@example.com",
      message: "A memory of the lake.",
      notifyWhenPublished: "on",
    });
    const sent = await answer(() =>
      guestbook.action({
        request: new Request(`${ORIGIN}/guestbook`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: form,
        }),
        params: {},
        context,
      } as never),
    );
    expect(sent.status).toBe(302);
    expect(db.select({ notify: memories.notifyWhenPublished }).from(memories).all()).toEqual([{ notify: false }]);
    expect(queueDueSummaries()).toBe(0);
    expect(listOutbox()).toEqual([]);
    const tab = await answer(() =>
      emailTab.loader({ request: new Request(`${ORIGIN}/admin/email`, { headers: { Cookie: cookie } }), params: {}, context } as never),
    );
    expect(await tab.json()).toMatchObject({ enabled: false, preferences: { email: "keeper@family.test", mailChoice: "each" } });
  });

  it("offers nobody to follow by e-mail: the home page has no form, /follow says so, and the API answers 404", async () => {
    expect((await homePage.loader({ request: new Request(`${ORIGIN}/`), params: {}, context } as never)).followForm).toBeNull();
    const api = await answer(() =>
      apiFollow.action({
        request: new Request(`${ORIGIN}/api/follow`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: "Ann", email: "ann@example.com", topics: ["new"] }),
        }),
        params: {},
        context,
      } as never),
    );
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({
      errors: { body: ["This memorial does not send e-mail, so it cannot keep anyone posted that way."] },
    });
    const form = await answer(() =>
      followPage.action({
        request: new Request(`${ORIGIN}/follow`, {
          method: "POST",
          body: new URLSearchParams({ name: "Ann", email: "ann@example.com", topics: "new" }),
        }),
        params: {},
        context,
      } as never),
    );
    expect(form.headers.get("Location")).toBe("/follow");
    expect(db.select().from(followers).all()).toEqual([]);
  });
});
