// "Let helpers read first": a choice of the family's in the Site tab and
// PATCH /api/admin/settings. With it on and a helper to read, new memories,
// photos and candles are the helpers' (the family's Pending tabs and the
// pending APIs do not list them unless asked), and so are the e-mails about
// them; with no helper it changes nothing. In process, on a real database.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // The site sends e-mail, so alerts are queued in the outbox (never sent here: no sender runs).
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { adminUsers, siteSettings } from "../../db/schema";
import { createAdmin, setAdminRole } from "~/admins/admin.server";
import { startAdminSession } from "~/admins/session.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { helpersReadFirst, readFirstInEffect } from "~/site/read-first.server";
import * as siteTab from "~/routes/admin.site";
import * as apiSettings from "~/routes/api.admin.settings";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.61.0.1" };
const family = operator("keeper");
const cookies = { family: "", helper: "" };
const ids = { keeper: 0, anna: 0 };

beforeAll(async () => {
  const keeper = await createAdmin({ username: "keeper", password: "the-right-password", role: "family" }, operator());
  const anna = await createAdmin({ username: "anna", password: "annas-password", role: "helper" }, operator());
  ids.keeper = keeper.id;
  ids.anna = anna.id;
  const logIn = async (admin: { id: number; username: string }) =>
    (await startAdminSession(new Request(`${ORIGIN}/admin`), admin)).split(";")[0]!;
  cookies.family = await logIn(keeper);
  cookies.helper = await logIn(anna);
});
beforeEach(() => {
  db.delete(siteSettings).where(eq(siteSettings.key, "helpersReadFirst")).run();
  if (db.select().from(adminUsers).where(eq(adminUsers.id, ids.anna)).get()?.role !== "helper") setAdminRole(ids.anna, "helper", family);
});

type Who = keyof typeof cookies;
const get = (url: string, who: Who) => new Request(`${ORIGIN}${url}`, { headers: { Cookie: cookies[who] } });
const post = (url: string, fields: Record<string, string>, who: Who) =>
  new Request(`${ORIGIN}${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies[who] },
    body: new URLSearchParams(fields),
  });
const patchSettings = (body: unknown, who: Who = "family") =>
  answer(() =>
    apiSettings.action({
      request: new Request(`${ORIGIN}/api/admin/settings`, {
        method: "PATCH",
        headers: { Cookie: cookies[who], "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      params: {},
      context,
    } as never),
  );
const getSettings = async (who: Who = "family") =>
  answer(() => apiSettings.loader({ request: get("/api/admin/settings", who), params: {}, context } as never));

describe("the setting over the API", () => {
  it("is off by default, turned on and off with a boolean, and shown with every setting", async () => {
    expect(await (await getSettings()).json()).toMatchObject({ helpersReadFirst: false, personName: expect.any(String) });
    const on = await patchSettings({ helpersReadFirst: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ helpersReadFirst: true });
    expect(helpersReadFirst()).toBe(true);
    expect(await (await getSettings()).json()).toMatchObject({ helpersReadFirst: true });
    expect(await (await patchSettings({ helpersReadFirst: false })).json()).toMatchObject({ helpersReadFirst: false });
    expect(helpersReadFirst()).toBe(false);
  });

  it("refuses anything but true or false with a 400 naming it, and saves nothing else of that change", async () => {
    for (const value of ["yes", 1, null, "true"]) {
      const response = await patchSettings({ helpersReadFirst: value, siteTitle: "Never saved" });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ errors: { helpersReadFirst: ["Let helpers read first must be true or false"] } });
    }
    expect(helpersReadFirst()).toBe(false);
    expect(((await (await getSettings()).json()) as { siteTitle: string }).siteTitle).not.toBe("Never saved");
  });

  it("is the family's: a helper gets a 403 and changes nothing", async () => {
    const response = await patchSettings({ helpersReadFirst: true }, "helper");
    expect(response.status).toBe(403);
    expect(helpersReadFirst()).toBe(false);
  });
});

describe("the setting in the Site tab", () => {
  it("is a checkbox saved by its own form, which says when there is no helper yet", async () => {
    const saved = await answer(() =>
      siteTab.action({
        request: post("/admin/site", { section: "helpers", helpersReadFirst: "on" }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/admin/site?saved=helpers#helpers");
    expect(helpersReadFirst()).toBe(true);
    expect(readFirstInEffect()).toBe(true);
    const page = await (
      await answer(() => siteTab.loader({ request: get("/admin/site?saved=helpers", "family"), params: {}, context } as never))
    ).json();
    expect(page.readFirst).toEqual({ on: true, helpers: 1, saved: true });

    // Unticked, the box sends nothing: the setting is off.
    await answer(() => siteTab.action({ request: post("/admin/site", { section: "helpers" }, "family"), params: {}, context } as never));
    expect(helpersReadFirst()).toBe(false);

    // With no helper, on changes nothing, and the tab says so.
    setAdminRole(ids.anna, "family", family);
    await answer(() =>
      siteTab.action({
        request: post("/admin/site", { section: "helpers", helpersReadFirst: "on" }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(helpersReadFirst()).toBe(true);
    expect(readFirstInEffect()).toBe(false);
    const alone = await (
      await answer(() => siteTab.loader({ request: get("/admin/site", "family"), params: {}, context } as never))
    ).json();
    expect(alone.readFirst).toMatchObject({ on: true, helpers: 0 });
  });
});
