// The family moderates voice memories as they do photos: the admin API and
// pages describe a voice with its line, its length and its sender's
// permission; a helper reads its sender by name alone; Publish and Delete
// answer in words about a voice (where it is heard, or that it is kept for
// the family); the daily summary names it; the player and the slideshow's
// card say what they should. Real recordings through the real pipeline.
import { translate } from "~/i18n/i18n.server";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signedUploads, uploads, type Role } from "../../db/schema";
import { createAdmin } from "~/admins/admin.server";
import { startAdminSession } from "~/admins/session.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { summaryItems } from "~/mail/summary-items.server";
import { summaryMail } from "~/mail/messages";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { getAdminUpload, setUploadStatus } from "~/uploads/upload.server";
import type { AdminUpload, SlideshowItem } from "~/uploads/upload.schema";
import { VoiceNotes, VoicePlayer } from "~/components/admin/AdminVoice";
import { Slide } from "~/components/SlideshowSlide";
import * as apiPendingUploads from "~/routes/api.admin.pending-uploads";
import * as apiPublishedUploads from "~/routes/api.admin.published-uploads";
import * as pendingUploadsPage from "~/routes/admin.uploads";
import * as uploadPage from "~/routes/admin.uploads.$id";
import * as publishedUploadsPage from "~/routes/admin.published.uploads";
import * as deleteUploadPage from "~/routes/admin.published.uploads.$id.delete";
import * as setAsidePage from "~/routes/admin.set-aside";
import { answer, toastOf } from "../support/route-calls";
import { makeVoiceFile } from "../support/voice-fixtures";

const ORIGIN = "http://memorial.test";
const context = { clientIp: "10.45.0.1" };
const cookies = {} as Record<Role, string>;
let work: string;
let recording: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(tmpdir(), "memorial-admin-voices-"));
  recording = makeVoiceFile(work, "m4a", { seconds: 3 });
  for (const [username, role] of [
    ["anna", "family"],
    ["helen", "helper"],
  ] as const) {
    const { id } = await createAdmin({ username, password: `${username}-password`, role }, operator());
    cookies[role] = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id })).split(";")[0]!;
  }
});
beforeEach(async () => {
  await processingIdle();
  db.delete(uploads).run();
  db.delete(signedUploads).run();
});
afterAll(async () => {
  await processingIdle();
  await fs.rm(work, { recursive: true, force: true });
});

/** A voice sent as the voice form sends it, and processed. */
async function voice(options: { submittedBy?: string; caption?: string; canDisplay?: boolean } = {}) {
  const originalName = "New Recording 12.m4a";
  const key = await storeFormUpload({ stream: createReadStream(recording), filename: originalName });
  const view = await registerFormUpload(key, {
    submittedBy: options.submittedBy ?? "Ann Lee (ann.private@example.com)",
    originalName,
    declaredType: "AUDIO",
    caption: options.caption,
    canDisplay: options.canDisplay,
  });
  await processingIdle();
  return view.id;
}

type RouteFunction = (args: never) => unknown;

function call(route: RouteFunction, role: Role, url: string, params: Record<string, string> = {}, form?: Record<string, string>) {
  const headers: Record<string, string> = { Cookie: cookies[role] };
  if (form) headers["Content-Type"] = "application/x-www-form-urlencoded";
  const request = new Request(`${ORIGIN}${url}`, form ? { method: "POST", headers, body: new URLSearchParams(form) } : { headers });
  return answer(() => route({ request, params, context } as never));
}

async function dataOf<T>(route: RouteFunction, role: Role, url: string, params: Record<string, string> = {}) {
  const response = await call(route, role, url, params);
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
}

describe("what the admin reads of a voice memory", () => {
  it("is its line, its length, its permission and its player's address, in the API and on every page", async () => {
    const id = await voice({ caption: "Happy birthday, Mum. I miss your laugh.", canDisplay: false });
    const [listed] = await dataOf<AdminUpload[]>(apiPendingUploads.loader, "family", "/api/admin/pending-uploads");
    expect(listed).toMatchObject({
      id,
      type: "AUDIO",
      caption: "Happy birthday, Mum. I miss your laugh.",
      canDisplay: false,
      durationSec: 3,
      title: "Voice memory from Ann Lee, 0:03",
      senderName: "Ann Lee",
      submittedBy: "Ann Lee (ann.private@example.com)",
      thumbnailUrl: null,
      mimeType: "audio/mp4",
      processing: { state: "ready" },
      status: "PENDING",
    });
    expect(listed!.url).toMatch(new RegExp(`^/media/${id}/[\\w-]+-voice\\.m4a$`));
    expect(listed!.originalUrl).toMatch(new RegExp(`^/media/${id}/[\\w-]+\\.m4a$`));
    const { uploads: tab } = await dataOf<{ uploads: AdminUpload[] }>(pendingUploadsPage.loader, "family", "/admin/uploads");
    expect(tab).toEqual([listed]);
    const { upload } = await dataOf<{ upload: AdminUpload }>(uploadPage.loader, "family", `/admin/uploads/${id}`, { id: String(id) });
    expect(upload).toEqual(listed);

    await setUploadStatus(id, "APPROVED", operator());
    const [published] = await dataOf<AdminUpload[]>(apiPublishedUploads.loader, "family", "/api/admin/published-uploads");
    expect(published).toMatchObject({ id, status: "APPROVED", caption: listed!.caption, canDisplay: false });
    const { page } = await dataOf<{ page: { items: AdminUpload[] } }>(publishedUploadsPage.loader, "family", "/admin/published/uploads");
    expect(page.items.map((item) => item.id)).toEqual([id]);
  });

  it("names its sender to a helper by name alone, even one sent with a name and no address", async () => {
    const withAddress = await voice({ caption: "For the grandchildren" });
    const nameAlone = await voice({ submittedBy: "Grandpa Ted" });
    const family = await dataOf<AdminUpload[]>(apiPendingUploads.loader, "family", "/api/admin/pending-uploads");
    const helper = await dataOf<AdminUpload[]>(apiPendingUploads.loader, "helper", "/api/admin/pending-uploads");
    expect(JSON.stringify(helper)).not.toContain("ann.private@example.com");
    expect(helper).toEqual([
      { ...family[0], submittedBy: "Ann Lee" },
      { ...family[1], submittedBy: "Grandpa Ted" },
    ]);
    expect(helper.map((item) => [item.id, item.title])).toEqual([
      [withAddress, "Voice memory from Ann Lee, 0:03"],
      [nameAlone, "Voice memory from Grandpa Ted, 0:03"],
    ]);
  });
});

describe("publishing and deleting a voice from the admin's forms", () => {
  const form = (role: Role, id: number, intent: string, extra: Record<string, string> = {}) =>
    call(pendingUploadsPage.action, role, "/admin/uploads", {}, { id: String(id), intent, ...extra });

  it("says where it is heard once published: on the guest book, or kept for the family", async () => {
    const shown = await voice();
    const kept = await voice({ submittedBy: "Rosa (rosa@example.com)", canDisplay: false });
    expect(toastOf(await form("family", shown, "approve"))).toMatchObject({
      title: "Upload Updated",
      description: "Upload status has been updated. The voice memory from Ann Lee is now on the guest book.",
    });
    expect(toastOf(await form("family", kept, "approve"))?.description).toBe(
      "Upload status has been updated. The voice memory from Rosa is now kept for the family, and no visitor hears it.",
    );
    expect(getAdminUpload(kept)).toMatchObject({ status: "APPROVED", canDisplay: false });
  });

  it("asks before deleting, then deletes it with its files; a helper's Delete sets it aside for the family", async () => {
    const deleted = await voice();
    const asked = (await (await form("family", deleted, "reject")).json()) as { confirm: { title: string; text: string } };
    expect(asked.confirm).toMatchObject({
      title: "Delete this upload permanently?",
      text: "The voice memory from Ann Lee will be deleted with all its files. This cannot be undone.",
    });
    expect(toastOf(await form("family", deleted, "reject", { confirmed: "yes" }))?.description).toBe(
      "Upload status has been updated. The voice memory from Ann Lee was deleted permanently.",
    );
    expect(getAdminUpload(deleted)).toMatchObject({ status: "REJECTED", setAside: false, originalUrl: null });

    const setAside = await voice({ submittedBy: "Grandpa Ted", caption: "The fishing song" });
    expect(toastOf(await form("helper", setAside, "reject", { confirmed: "yes" }))?.description).toBe(
      "Upload status has been updated. The voice memory from Grandpa Ted was set aside with its files: no visitor will see it, and the family can still publish it.",
    );
    const { uploads: kept } = await dataOf<{ uploads: AdminUpload[] }>(setAsidePage.loader, "family", "/admin/set-aside");
    expect(kept).toEqual([expect.objectContaining({ id: setAside, type: "AUDIO", caption: "The fishing song", setAside: true })]);
  });

  it("asks about a published voice in its own words, and answers in them", async () => {
    const id = await voice({ canDisplay: false });
    await setUploadStatus(id, "APPROVED", operator());
    const params = { id: String(id) };
    const url = `/admin/published/uploads/${id}/delete`;
    const { upload } = await dataOf<{ upload: { name: string; type: string } }>(deleteUploadPage.loader, "helper", url, params);
    expect(upload).toMatchObject({ name: "The voice memory from Ann Lee", type: "AUDIO" });
    const unpublished = await call(
      publishedUploadsPage.action,
      "family",
      "/admin/published/uploads",
      {},
      { id: String(id), intent: "unpublish" },
    );
    expect(toastOf(unpublished)).toEqual(
      expect.objectContaining({
        title: "Upload Unpublished",
        description: "This voice memory is unpublished. It is kept here, and you can publish it again.",
      }),
    );
    const deleted = await call(deleteUploadPage.action, "family", url, params, { intent: "delete" });
    expect(toastOf(deleted)).toMatchObject({
      title: "Upload Deleted",
      description: "The voice memory and all its files have been deleted.",
    });
    expect(getAdminUpload(id)).toBeUndefined();
  });
});

describe("the daily summary", () => {
  const frame = { personName: "Jo", siteTitle: "In Memory of Jo", reason: "you chose it", unsubscribeUrl: "http://memorial.test/u" };

  it("names a waiting voice by its sender, its length and its line, and counts voices apart", async () => {
    await voice({ caption: "Happy birthday, Mum" });
    await voice({ submittedBy: "Grandpa Ted" });
    const { items, pictures } = summaryItems(db, Date.now(), "helper");
    expect(items.uploads.map((upload) => upload.label)).toEqual([
      "Voice memory from Ann Lee, 0:03: “Happy birthday, Mum”",
      "Voice memory from Grandpa Ted, 0:03",
    ]);
    expect(pictures).toEqual([]);
    const mail = summaryMail(frame, items);
    expect(mail.subject).toBe("Jo: 2 voice memories wait for you");
    expect(mail.text).toContain("Voice memories waiting (2)");
    expect(mail.text).not.toContain("ann.private@example.com");

    const mixed = summaryMail(frame, { ...items, uploads: [...items.uploads, { label: "Photo", url: "", cid: null }] });
    expect(mixed.subject).toBe("Jo: 1 photo or video and 2 voice memories wait for you");
    expect(mixed.text).toContain("Photos, videos and voice memories waiting (3)");
    const withMemory = summaryMail(frame, { ...items, memories: [{ name: "Ellen", opening: "Hello", url: "" }] });
    expect(withMemory.subject).toBe("Jo: 1 memory and 2 voice memories wait for you");
  });
});

describe("the player and the slideshow's card", () => {
  const text = (html: string) => html.replace(/<[^>]+>/g, "");

  it("plays the levelled copy once ready, labelled with who and how long; before, offers the recording as sent", () => {
    const upload = {
      url: "/media/7/abc-voice.m4a",
      title: "Voice memory from Ann, 0:42",
      caption: "For Mum",
      canDisplay: true,
      processing: { state: "ready" as const },
      originalUrl: "/media/7/original.webm",
      originalName: "recording.webm",
    };
    const ready = renderToStaticMarkup(<VoicePlayer upload={upload} />);
    expect(ready).toMatch(/^<audio controls="" preload="none" src="\/media\/7\/abc-voice.m4a" aria-label="Voice memory from Ann, 0:42"/);
    const waiting = renderToStaticMarkup(<VoicePlayer upload={{ ...upload, url: "", processing: { state: "waiting" } }} />);
    expect(waiting).not.toContain("<audio");
    expect(waiting).toContain('href="/media/7/original.webm" download="recording.webm"');
    expect(renderToStaticMarkup(<VoicePlayer upload={{ ...upload, processing: { state: "waiting" } }} offerOriginal={false} />)).toBe("");

    expect(text(renderToStaticMarkup(<VoiceNotes upload={upload} />))).toBe("“For Mum”");
    expect(text(renderToStaticMarkup(<VoiceNotes upload={{ caption: null, canDisplay: false }} />))).toBe(
      "Shared with the family only: published, it is kept for the family and not shown to visitors.",
    );
  });

  it("shows a voice as a card with its sender and line, and nothing that plays", () => {
    const item: SlideshowItem = {
      id: 3,
      type: "AUDIO",
      imageUrl: null,
      videoUrl: null,
      posterUrl: null,
      durationSec: null,
      senderName: "Ann",
      caption: "Sing it loud",
    };
    const noop = () => {};
    const card = renderToStaticMarkup(
      <Slide item={item} entering paused={false} loop={false} onEnded={noop} onFaded={noop} t={translate("en")} />,
    );
    expect(text(card)).toBe("A voice memory from Ann“Sing it loud”");
    expect(card).not.toMatch(/<(audio|video|img)\b/);
    const unnamed = renderToStaticMarkup(
      <Slide
        item={{ ...item, senderName: null, caption: null }}
        entering
        paused={false}
        loop={false}
        onEnded={noop}
        onFaded={noop}
        t={translate("en")}
      />,
    );
    expect(text(unnamed)).toBe("A voice memory from a guest");
  });
});
