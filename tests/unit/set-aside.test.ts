// A helper's rejection is set aside, never a deletion: what she rejects or
// deletes (a memory, a photo with its files, a candle's words) is kept whole
// for the family, who alone can publish it again or delete it for good. The
// family's own rejections and deletions work as before. The models, the
// forms and the JSON API, in process, on a real SQLite database and disk storage.
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { candles, memories, uploads } from "../../db/schema";
import { ONLY_FAMILY_UNDOES } from "~/admins/roles";
import { deleteCandle, getCandle, lightCandle, setCandleStatus } from "~/candles/candles.server";
import { deleteMemory, getMemory, listPublicMemories, setMemoryStatus, submitMemory, updateMemory } from "~/guestbook/memory.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { operator, type Actor } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { deleteUpload, getUpload, setUploadStatus } from "~/uploads/upload.server";
import { findMediaFile, getGalleryItem } from "~/uploads/gallery.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { storageUse } from "~/uploads/upload-budget.server";
import * as pendingTab from "~/routes/admin._index";
import * as uploadsTab from "~/routes/admin.uploads";
import * as deleteMemoryPage from "~/routes/admin.published.memories.$id.delete";
import * as deleteUploadPage from "~/routes/admin.published.uploads.$id.delete";
import * as memoryPage from "~/routes/admin.memories.$id";
import * as uploadPage from "~/routes/admin.uploads.$id";
import * as apiMemory from "~/routes/api.admin.memories.$id";
import * as apiUpload from "~/routes/api.admin.uploads.$id";
import * as apiCandle from "~/routes/api.admin.candles.$id";
import * as media from "~/routes/media.$id.$file";
import * as layout from "~/routes/admin";
import * as setAsidePage from "~/routes/admin.set-aside";
import * as apiSetAside from "~/routes/api.admin.set-aside";
import { answer, toastOf } from "../support/route-calls";
import { pendingPhoto, storedFiles } from "../support/moderation-fixtures";
import { familyAndHelper, requestsAs, type Who } from "../support/role-sessions";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.60.0.1" };
const family = operator("keeper");
/** Anna, a helper, as the models see her (routes get her from her session). */
const anna: Actor = { username: "anna", role: "helper", commit: (write) => db.transaction(write, { behavior: "immediate" }) };
const cookies = { family: "", helper: "" };

beforeAll(async () => {
  Object.assign(cookies, (await familyAndHelper(ORIGIN)).cookies);
});
beforeEach(() => {
  db.delete(memories).run();
  db.delete(candles).run();
  db.delete(uploads).run();
});
afterAll(() => processingIdle());

function memory(name: string, status: "APPROVED" | "PENDING" = "PENDING") {
  const { id } = submitMemory(MemoryApiSchema.parse({ name, email: "friend@example.com", message: `A memory of the lake from ${name}.` }));
  if (status !== "PENDING") setMemoryStatus(id, status, family);
  return id;
}

async function photo(name: string, status: "APPROVED" | "PENDING" = "PENDING") {
  const id = await pendingPhoto(name, "Ann Lee (ann@example.com)");
  if (status === "APPROVED") await setUploadStatus(id, "APPROVED", family);
  return id;
}

function candle(name: string) {
  lightCandle({ name, message: "Thinking of you" }, { clientIp: "203.0.113.9", visitorId: `visitor-${name}` });
  return db.select({ id: candles.id }).from(candles).where(eq(candles.name, name)).get()!.id;
}

const filesOf = (id: number) => {
  const row = getUpload(id)!;
  return [row.storageKey, row.displayKey, row.thumbnailKey].filter((key): key is string => !!key);
};
const isStored = (key: string) => storedFiles().some((file) => file.endsWith(path.basename(key)));

const { get, post, api } = requestsAs(ORIGIN, cookies);
const mediaFile = (id: number, key: string, who: Who | null) =>
  answer(() =>
    media.loader({
      request: get(`/media/${id}/${path.posix.basename(key)}`, who),
      params: { id: String(id), file: path.posix.basename(key) },
      context,
    } as never),
  );

describe("a helper's rejection", () => {
  it("sets a memory aside, by her name, from the Pending tab's form: asked first in her words, kept whole", async () => {
    const id = memory("Ann Lee");
    const asked = await answer(() =>
      pendingTab.action({ request: post("/admin?index", { intent: "reject", id: String(id) }, "helper"), params: {}, context } as never),
    );
    expect(await asked.json()).toMatchObject({
      confirm: { title: "Set this memory aside?", confirmLabel: "Yes, set it aside", text: expect.stringContaining("kept for the family") },
    });
    const done = await answer(() =>
      pendingTab.action({
        request: post("/admin?index", { intent: "reject", id: String(id), confirmed: "yes" }, "helper"),
        params: {},
        context,
      } as never),
    );
    expect(done.status).toBe(302);
    expect(toastOf(done)?.description).toContain("Ann Lee’s memory was set aside");
    expect(getMemory(id)).toMatchObject({
      status: "REJECTED",
      setAside: true,
      moderatedBy: "anna",
      message: "A memory of the lake from Ann Lee.",
    });
  });

  it("sets a photo aside with every file kept, served to admins and never to visitors", async () => {
    const id = await photo("kept.jpg");
    const files = filesOf(id);
    expect(files.length).toBeGreaterThanOrEqual(2);
    const done = await answer(() =>
      uploadsTab.action({
        request: post("/admin/uploads", { intent: "reject", id: String(id), confirmed: "yes" }, "helper"),
        params: {},
        context,
      } as never),
    );
    expect(toastOf(done)?.description).toContain("was set aside with its files");
    expect(getUpload(id)).toMatchObject({ status: "REJECTED", setAside: true, moderatedBy: "anna" });
    expect(filesOf(id)).toEqual(files);
    for (const key of files) expect(isStored(key)).toBe(true);
    const thumbnail = getUpload(id)!.thumbnailKey!;
    expect((await mediaFile(id, thumbnail, null)).status).toBe(404);
    expect((await mediaFile(id, thumbnail, "family")).status).toBe(200);
    // Its files still take room: the Pending Uploads tab counts them apart, as set aside.
    expect((await storageUse()).setAsideBytes).toBe(getUpload(id)!.sizeBytes);
    expect(findMediaFile(id, path.posix.basename(thumbnail))?.media.public).toBe(false);
  });

  it("sets a candle's words aside over the API", async () => {
    const id = candle("Cousin Ray");
    const response = await answer(() =>
      apiCandle.action({
        request: api(`/api/admin/candles/${id}`, "PATCH", "helper", { status: "REJECTED" }),
        params: { id: String(id) },
        context,
      } as never),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "REJECTED", setAside: true, moderatedBy: "anna" });
  });

  it("over PATCH sets a memory and an upload aside, files kept", async () => {
    const memoryId = memory("Uncle Joe");
    const patched = await answer(() =>
      apiMemory.action({
        request: api(`/api/admin/memories/${memoryId}`, "PATCH", "helper", { status: "REJECTED" }),
        params: { id: String(memoryId) },
        context,
      } as never),
    );
    expect(await patched.json()).toMatchObject({ status: "REJECTED", setAside: true });
    const uploadId = await photo("patched.jpg");
    const files = filesOf(uploadId);
    const upload = await answer(() =>
      apiUpload.action({
        request: api(`/api/admin/uploads/${uploadId}`, "PATCH", "helper", { status: "REJECTED" }),
        params: { id: String(uploadId) },
        context,
      } as never),
    );
    expect(await upload.json()).toMatchObject({ status: "REJECTED", setAside: true });
    for (const key of files) expect(isStored(key)).toBe(true);
  });
});

describe("a helper's delete", () => {
  it("over the API answers 204 as the family's does, and sets the memory and the upload aside", async () => {
    const memoryId = memory("Aunt May", "APPROVED");
    const deleted = await answer(() =>
      apiMemory.action({
        request: api(`/api/admin/memories/${memoryId}`, "DELETE", "helper"),
        params: { id: String(memoryId) },
        context,
      } as never),
    );
    expect(deleted.status).toBe(204);
    expect(getMemory(memoryId)).toMatchObject({ status: "REJECTED", setAside: true, moderatedBy: "anna" });
    expect(listPublicMemories({ limit: 10 }).items.map((item) => item.id)).not.toContain(memoryId);

    const uploadId = await photo("api-delete.jpg", "APPROVED");
    const files = filesOf(uploadId);
    const gone = await answer(() =>
      apiUpload.action({
        request: api(`/api/admin/uploads/${uploadId}`, "DELETE", "helper"),
        params: { id: String(uploadId) },
        context,
      } as never),
    );
    expect(gone.status).toBe(204);
    expect(getUpload(uploadId)).toMatchObject({ status: "REJECTED", setAside: true });
    expect(getGalleryItem(uploadId)).toBeUndefined();
    for (const key of files) expect(isStored(key)).toBe(true);
  });

  it("from the Published tab's pages sets aside, with a toast that says so", async () => {
    const memoryId = memory("Grandpa Lou", "APPROVED");
    const page = `/admin/published/memories/${memoryId}/delete`;
    const done = await answer(() =>
      deleteMemoryPage.action({ request: post(page, { intent: "delete" }, "helper"), params: { id: String(memoryId) }, context } as never),
    );
    expect(toastOf(done)?.title).toBe("Memory Set Aside");
    expect(getMemory(memoryId)).toMatchObject({ status: "REJECTED", setAside: true });

    const uploadId = await photo("page-delete.jpg", "APPROVED");
    const files = filesOf(uploadId);
    const uploadDone = await answer(() =>
      deleteUploadPage.action({
        request: post(`/admin/published/uploads/${uploadId}/delete`, { intent: "delete" }, "helper"),
        params: { id: String(uploadId) },
        context,
      } as never),
    );
    expect(toastOf(uploadDone)?.title).toBe("Upload Set Aside");
    expect(getUpload(uploadId)).toMatchObject({ status: "REJECTED", setAside: true });
    for (const key of files) expect(isStored(key)).toBe(true);
  });

  it("of a candle sets it aside too", () => {
    const id = candle("Neighbour Sue");
    expect(deleteCandle(id, anna)).toBe(true);
    expect(getCandle(id)).toMatchObject({ status: "REJECTED", setAside: true });
  });
});

describe("the family's rejection and delete", () => {
  it("work as before: a rejected memory is not set aside, a rejected upload's files are gone, a delete deletes", async () => {
    const memoryId = memory("Old Friend");
    setMemoryStatus(memoryId, "REJECTED", family);
    expect(getMemory(memoryId)).toMatchObject({ status: "REJECTED", setAside: false, moderatedBy: "keeper" });
    expect(deleteMemory(memoryId, family)).toBe(true);
    expect(getMemory(memoryId)).toBeUndefined();

    const uploadId = await photo("family-reject.jpg");
    const files = filesOf(uploadId);
    await setUploadStatus(uploadId, "REJECTED", family);
    expect(getUpload(uploadId)).toMatchObject({ status: "REJECTED", setAside: false, storageKey: null, thumbnailKey: null });
    for (const key of files) expect(isStored(key)).toBe(false);
    expect((await storageUse()).setAsideBytes).toBe(0);

    const deletedId = await photo("family-delete.jpg", "APPROVED");
    expect(await deleteUpload(deletedId, family)).toMatchObject({ id: deletedId });
    expect(getUpload(deletedId)).toBeUndefined();

    const candleId = candle("Stranger");
    setCandleStatus(candleId, "REJECTED", family);
    expect(getCandle(candleId)).toMatchObject({ status: "REJECTED", setAside: false });
  });

  it("asks the family in its own words, unchanged", async () => {
    const id = memory("Plain Words");
    const asked = await answer(() =>
      pendingTab.action({ request: post("/admin?index", { intent: "reject", id: String(id) }, "family"), params: {}, context } as never),
    );
    expect(await asked.json()).toMatchObject({ confirm: { title: "Reject this memory?", confirmLabel: "Yes, reject it" } });
  });
});

describe("undoing a set-aside", () => {
  it("the family publishes a set-aside memory again: on the guest book, no longer set aside", () => {
    const id = memory("Second Thoughts", "APPROVED");
    expect(deleteMemory(id, anna)).toBe(true);
    expect(updateMemory(id, { status: "APPROVED" }, family)).toMatchObject({ status: "APPROVED", setAside: false, moderatedBy: "keeper" });
    expect(listPublicMemories({ limit: 10 }).items.map((item) => item.id)).toContain(id);
  });

  it("the family keeps a set-aside memory unpublished (HIDDEN), which clears it too", () => {
    const id = memory("Kept Quiet");
    setMemoryStatus(id, "REJECTED", anna);
    expect(updateMemory(id, { status: "HIDDEN" }, family)).toMatchObject({ status: "HIDDEN", setAside: false });
  });

  it("the family publishes a set-aside photo again: its files are served to visitors again", async () => {
    const id = await photo("restored.jpg", "APPROVED");
    await deleteUpload(id, anna);
    const thumbnail = getUpload(id)!.thumbnailKey!;
    expect((await mediaFile(id, thumbnail, null)).status).toBe(404);
    const response = await answer(() =>
      apiUpload.action({
        request: api(`/api/admin/uploads/${id}`, "PATCH", "family", { status: "APPROVED" }),
        params: { id: String(id) },
        context,
      } as never),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "APPROVED", setAside: false });
    expect(getGalleryItem(id)).toBeDefined();
    expect((await mediaFile(id, thumbnail, null)).status).toBe(200);
  });

  it("a photo set aside before it was prepared is prepared once the family keeps it, then can be published", async () => {
    const id = await photo("unfinished.jpg");
    // As if its processing had not finished when the helper set it aside (her rejection stops it).
    db.update(uploads).set({ processedAt: null }).where(eq(uploads.id, id)).run();
    await setUploadStatus(id, "REJECTED", anna);
    await processingIdle();
    expect(getUpload(id)?.processedAt).toBeNull();
    await expect(setUploadStatus(id, "APPROVED", family)).rejects.toMatchObject({ status: 409 });
    expect(await setUploadStatus(id, "HIDDEN", family)).toMatchObject({ status: "HIDDEN", setAside: false });
    await processingIdle();
    expect(getUpload(id)?.processedAt).not.toBeNull();
    expect(await setUploadStatus(id, "APPROVED", family)).toMatchObject({ status: "APPROVED" });
  });

  it("a family's rejection of an upload is still final", async () => {
    const id = await photo("final.jpg");
    await setUploadStatus(id, "REJECTED", family);
    await expect(setUploadStatus(id, "APPROVED", family)).rejects.toMatchObject({ status: 409 });
  });

  it("is the family's alone: a helper's publish or unpublish of anything rejected is a 403, and nothing changes", async () => {
    const memoryId = memory("Not Hers To Undo");
    setMemoryStatus(memoryId, "REJECTED", anna);
    for (const status of ["APPROVED", "HIDDEN"]) {
      const response = await answer(() =>
        apiMemory.action({
          request: api(`/api/admin/memories/${memoryId}`, "PATCH", "helper", { status }),
          params: { id: String(memoryId) },
          context,
        } as never),
      );
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ errors: { status: [ONLY_FAMILY_UNDOES] } });
    }
    expect(getMemory(memoryId)).toMatchObject({ status: "REJECTED", setAside: true });

    const uploadId = await photo("not-hers.jpg");
    await setUploadStatus(uploadId, "REJECTED", anna);
    const upload = await answer(() =>
      apiUpload.action({
        request: api(`/api/admin/uploads/${uploadId}`, "PATCH", "helper", { status: "APPROVED" }),
        params: { id: String(uploadId) },
        context,
      } as never),
    );
    expect(upload.status).toBe(403);
    expect(getUpload(uploadId)).toMatchObject({ status: "REJECTED", setAside: true });

    const candleId = candle("Not Hers Either");
    setCandleStatus(candleId, "REJECTED", anna);
    const lit = await answer(() =>
      apiCandle.action({
        request: api(`/api/admin/candles/${candleId}`, "PATCH", "helper", { status: "APPROVED" }),
        params: { id: String(candleId) },
        context,
      } as never),
    );
    expect(lit.status).toBe(403);
    expect(getCandle(candleId)).toMatchObject({ status: "REJECTED", setAside: true });
  });

  it("a helper rejecting what the family rejected leaves it the family's", () => {
    const id = memory("Family Said No");
    setMemoryStatus(id, "REJECTED", family);
    setMemoryStatus(id, "REJECTED", anna);
    expect(getMemory(id)).toMatchObject({ setAside: false, moderatedBy: "keeper" });
  });
});

describe("a set-aside item's review page", () => {
  it("sends the family to the Set aside view, and tells a helper it is set aside", async () => {
    const id = memory("By Its Link");
    setMemoryStatus(id, "REJECTED", anna);
    const familyView = await answer(() =>
      memoryPage.loader({ request: get(`/admin/memories/${id}`, "family"), params: { id: String(id) }, context } as never),
    );
    expect(familyView.status).toBe(302);
    expect(familyView.headers.get("Location")).toBe(`/admin/set-aside#memory-${id}`);
    const helperView = await answer(() =>
      memoryPage.loader({ request: get(`/admin/memories/${id}`, "helper"), params: { id: String(id) }, context } as never),
    );
    expect(helperView.status).toBe(200);

    const uploadId = await photo("by-its-link.jpg");
    await setUploadStatus(uploadId, "REJECTED", anna);
    const uploadView = await answer(() =>
      uploadPage.loader({ request: get(`/admin/uploads/${uploadId}`, "family"), params: { id: String(uploadId) }, context } as never),
    );
    expect(uploadView.headers.get("Location")).toBe(`/admin/set-aside#upload-${uploadId}`);
  });
});

describe("the Set aside view", () => {
  it("is the family's alone: a helper gets the 403 page and the API's 403, and no count in her tabs", async () => {
    const page = await answer(() => setAsidePage.loader({ request: get("/admin/set-aside", "helper"), params: {}, context } as never));
    expect(page.status).toBe(403);
    const form = await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=memory", { intent: "publish", id: "1" }, "helper"),
        params: {},
        context,
      } as never),
    );
    expect(form.status).toBe(403);
    const listed = await answer(() =>
      apiSetAside.loader({ request: api("/api/admin/set-aside", "GET", "helper"), params: {}, context } as never),
    );
    expect(listed.status).toBe(403);
    expect(await listed.json()).toEqual({ errors: { role: [expect.any(String)] } });
    const layoutData = await (await answer(() => layout.loader({ request: get("/admin", "helper"), params: {}, context } as never))).json();
    expect(layoutData.counts.setAside).toBe(0);
    const anonymous = await answer(() => apiSetAside.loader({ request: get("/api/admin/set-aside", null), params: {}, context } as never));
    expect(anonymous.status).toBe(401);
  });

  it("lists for the family what helpers set aside, the newest first, in the pending lists' shapes, and counts it in their tab", async () => {
    const first = memory("First Set Aside");
    setMemoryStatus(first, "REJECTED", anna, Date.now() - 60_000);
    const second = memory("Second Set Aside");
    setMemoryStatus(second, "REJECTED", anna);
    memory("Still Waiting");
    const familyRejected = memory("Family Rejected");
    setMemoryStatus(familyRejected, "REJECTED", family);
    const uploadId = await photo("listed.jpg");
    await setUploadStatus(uploadId, "REJECTED", anna);
    const candleId = candle("Listed Candle");
    setCandleStatus(candleId, "REJECTED", anna);

    const response = await answer(() =>
      apiSetAside.loader({ request: api("/api/admin/set-aside", "GET", "family"), params: {}, context } as never),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.memories.map((item: { id: number }) => item.id)).toEqual([second, first]);
    expect(Object.keys(body.memories[0]).sort()).toEqual(Object.keys(getMemory(second)!).sort());
    expect(body.memories[0]).toMatchObject({ email: "friend@example.com", setAside: true, moderatedBy: "anna" });
    expect(body.uploads).toEqual([expect.objectContaining({ id: uploadId, setAside: true })]);
    expect(body.candles).toEqual([expect.objectContaining({ id: candleId, name: "Listed Candle", setAside: true })]);

    const pageData = await (
      await answer(() => setAsidePage.loader({ request: get("/admin/set-aside", "family"), params: {}, context } as never))
    ).json();
    expect(pageData.memories.map((item: { id: number }) => item.id)).toEqual([second, first]);
    const layoutData = await (await answer(() => layout.loader({ request: get("/admin", "family"), params: {}, context } as never))).json();
    expect(layoutData.counts.setAside).toBe(4);
  });

  it("publishes a memory from its form, and deletes one for good only once asked and confirmed", async () => {
    const kept = memory("Published After All");
    setMemoryStatus(kept, "REJECTED", anna);
    const published = await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=memory", { intent: "publish", id: String(kept) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(published.headers.get("Location")).toBe("/admin/set-aside");
    expect(toastOf(published)).toMatchObject({ title: "Memory Published" });
    expect(getMemory(kept)).toMatchObject({ status: "APPROVED", setAside: false, moderatedBy: "keeper" });
    expect(listPublicMemories({ limit: 10 }).items.map((item) => item.id)).toContain(kept);

    const gone = memory("Deleted For Good");
    setMemoryStatus(gone, "REJECTED", anna);
    const asked = await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=memory", { intent: "delete", id: String(gone) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(await asked.json()).toMatchObject({
      confirm: { id: gone, intent: "delete", title: "Delete this for good?", confirmLabel: "Yes, delete it for good" },
      action: "/admin/set-aside?kind=memory",
    });
    expect(getMemory(gone)).toBeDefined();
    const deleted = await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=memory", { intent: "delete", id: String(gone), confirmed: "yes" }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(toastOf(deleted)).toMatchObject({ title: "Memory Deleted" });
    expect(getMemory(gone)).toBeUndefined();
  });

  it("acts only on what is set aside: a pending memory is not published from here", async () => {
    const id = memory("Not Set Aside");
    const response = await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=memory", { intent: "publish", id: String(id) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(toastOf(response)?.description).toContain("no longer set aside");
    expect(getMemory(id)?.status).toBe("PENDING");
  });

  it("publishes a photo and a candle, and deletes a photo's files for good", async () => {
    const photoId = await photo("back-in-gallery.jpg");
    await setUploadStatus(photoId, "REJECTED", anna);
    await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=upload", { intent: "publish", id: String(photoId) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(getGalleryItem(photoId)).toBeDefined();

    const candleId = candle("Lit Again");
    setCandleStatus(candleId, "REJECTED", anna);
    await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=candle", { intent: "publish", id: String(candleId) }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(getCandle(candleId)).toMatchObject({ status: "APPROVED", setAside: false });

    const doomed = await photo("doomed.jpg");
    const files = filesOf(doomed);
    await setUploadStatus(doomed, "REJECTED", anna);
    const deleted = await answer(() =>
      setAsidePage.action({
        request: post("/admin/set-aside?kind=upload", { intent: "delete", id: String(doomed), confirmed: "yes" }, "family"),
        params: {},
        context,
      } as never),
    );
    expect(toastOf(deleted)).toMatchObject({ title: "Upload Deleted" });
    expect(getUpload(doomed)).toBeUndefined();
    for (const key of files) expect(isStored(key)).toBe(false);
  });
});
