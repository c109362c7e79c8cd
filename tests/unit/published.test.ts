// After publishing, the family stays in charge: a published memory or photo
// can be unpublished (HIDDEN: kept, shown to no visitor, published again at
// will), corrected (a memory's name or message, the visitor's words kept) and
// deleted (a photo's files only once the row's deletion is committed). Every
// change shows on the next public read, and the keepsake and spreadsheets
// follow. Real SQLite and disk storage on temporary folders.
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { adminUsers, memories } from "../../db/schema";
import { operator, type Actor } from "~/platform/actor.server";
import { startAdminSession } from "~/admins/session.server";
import { contentVersion, db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import { approvedMemoryRows } from "~/keepsakes/csv.server";
import {
  deleteMemory,
  getMemory,
  listPublicMemories,
  listPublishedMemories,
  ONLY_PUBLISHED_CAN_BE_HIDDEN,
  setMemoryStatus,
  submitMemory,
  updateMemory,
} from "~/guestbook/memory.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { createPoem, listPoems } from "~/poems/poem.server";
import { deleteUpload, getUpload, listPublishedUploads, setUploadStatus } from "~/uploads/upload.server";
import { findMediaFile, getGalleryItem, listGallery, listSlideshow } from "~/uploads/gallery.server";
import { registerFormUpload, storeFormUpload } from "~/uploads/upload-form.server";
import { processingIdle } from "~/uploads/upload-processing.server";
import { archiveContents, createFamilyArchive } from "~/keepsakes/archive.server";
import { Refusal } from "~/platform/refusal.server";
import * as editMemoryRoute from "~/routes/admin.published.memories.$id.edit";
import * as deleteMemoryRoute from "~/routes/admin.published.memories.$id.delete";
import * as memoriesList from "~/routes/admin.published.memories";
import * as uploadsList from "~/routes/admin.published.uploads";
import * as deleteUploadRoute from "~/routes/admin.published.uploads.$id.delete";
import * as poemsTab from "~/routes/admin.poems";
import * as deletePoemRoute from "~/routes/admin.poems.$id.delete";
import * as apiMemory from "~/routes/api.admin.memories.$id";
import * as apiUpload from "~/routes/api.admin.uploads.$id";
import * as apiPublishedMemories from "~/routes/api.admin.published-memories";
import * as apiPublishedUploads from "~/routes/api.admin.published-uploads";
import { storedFiles } from "../support/moderation-fixtures";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.50.0.1" };
const admin = operator("keeper");
let cookie: string;

beforeAll(async () => {
  await upsertAdmin("keeper", "the-right-password");
  const { id } = db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id, username: "keeper" })).split(";")[0]!;
});
beforeEach(() => {
  db.delete(memories).run();
});
afterAll(() => processingIdle());

function memory(name: string, message = `A memory of the lake from ${name}.`, status: "APPROVED" | "PENDING" | "REJECTED" = "APPROVED") {
  const { id } = submitMemory(MemoryApiSchema.parse({ name, email: "friend@example.com", message }));
  if (status !== "PENDING") setMemoryStatus(id, status, admin);
  return id;
}

async function photo(name = "lake.jpg", status: "APPROVED" | "PENDING" = "APPROVED") {
  const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#6a8caf" } })
    .jpeg()
    .toBuffer();
  const key = await storeFormUpload({ stream: Readable.from([bytes]), filename: name });
  const view = await registerFormUpload(key, { submittedBy: "Ann Lee (ann@example.com)", originalName: name });
  await processingIdle();
  if (status === "APPROVED") await setUploadStatus(view.id, "APPROVED", admin);
  return view.id;
}

const filesOf = (id: number) => {
  const row = getUpload(id)!;
  return [row.storageKey, row.displayKey, row.thumbnailKey].filter((key): key is string => !!key);
};

const guestBook = () => listPublicMemories({ limit: 50 }).items.map((item) => item.name);
const csvNames = () => [...approvedMemoryRows()].map((row) => row[0]);

/** An actor whose session ended before the write: its commit is refused, as requireAdmin's would be. */
const endedSession: Actor = {
  username: "gone",
  role: "family",
  commit: () => {
    throw new Response(null, { status: 302, headers: { Location: "/admin/login" } });
  },
};

function post(url: string, fields: Record<string, string>) {
  return new Request(`${ORIGIN}${url}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}
const get = (url: string) => new Request(`${ORIGIN}${url}`, { headers: { Cookie: cookie } });
const api = (url: string, method: string, body?: unknown) =>
  new Request(`${ORIGIN}${url}`, {
    method,
    headers: { Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
/** The toast a redirect sets (a signed cookie whose value is base64 JSON). */
function toastOf(response: Response): { title: string; description?: string } | undefined {
  const set = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  if (!set) return undefined;
  const value = decodeURIComponent(set.split(";")[0]!.slice("__toast=".length));
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8"))["__flash_toast__"];
}

describe("unpublishing a memory", () => {
  it("takes it off the guest book and the spreadsheet at once, keeps it, and publishing it again brings it back", () => {
    const id = memory("Cousin Ellen");
    memory("Uncle Joe");
    expect(guestBook()).toEqual(["Uncle Joe", "Cousin Ellen"]);
    const version = contentVersion();

    expect(updateMemory(id, { status: "HIDDEN" }, admin)).toMatchObject({ status: "HIDDEN", moderatedBy: "keeper" });
    expect(contentVersion()).not.toBe(version);
    expect(guestBook()).toEqual(["Uncle Joe"]);
    expect(csvNames()).toEqual(["Uncle Joe"]);
    expect(getMemory(id)).toMatchObject({ name: "Cousin Ellen", status: "HIDDEN" });

    updateMemory(id, { status: "APPROVED" }, admin);
    expect(guestBook()).toEqual(["Uncle Joe", "Cousin Ellen"]);
    expect(csvNames()).toEqual(["Cousin Ellen", "Uncle Joe"]);
  });

  it("is only for what was published: a memory waiting for review or rejected cannot be hidden", () => {
    for (const status of ["PENDING", "REJECTED"] as const) {
      const id = memory(`Waiting ${status}`, undefined, status);
      expect(() => updateMemory(id, { status: "HIDDEN" }, admin)).toThrow(new Refusal(409, "status", ONLY_PUBLISHED_CAN_BE_HIDDEN));
      expect(getMemory(id)?.status).toBe(status);
    }
  });
});

describe("correcting a memory", () => {
  it("changes what visitors read, keeps what the visitor sent from the first correction on, and says who corrected it when", () => {
    const id = memory("Elen Smiht", "She sang at every picnic by the lake.");
    const at = Date.parse("2025-09-02T10:00:00Z");
    const first = updateMemory(id, { name: "Ellen Smith" }, operator("anna"), at)!;
    expect(first).toMatchObject({
      name: "Ellen Smith",
      message: "She sang at every picnic by the lake.",
      originalName: "Elen Smiht",
      originalMessage: "She sang at every picnic by the lake.",
      editedBy: "anna",
      editedAt: "2025-09-02T10:00:00.000Z",
      status: "APPROVED",
    });
    expect(guestBook()).toEqual(["Ellen Smith"]);
    expect(listPublicMemories({ limit: 10 }).items[0]!.message).toBe("She sang at every picnic by the lake.");

    const second = updateMemory(id, { message: "She sang at every picnic by the river." }, operator("ben"), at + 1000)!;
    expect(second).toMatchObject({
      name: "Ellen Smith",
      message: "She sang at every picnic by the river.",
      originalName: "Elen Smiht",
      originalMessage: "She sang at every picnic by the lake.",
      editedBy: "ben",
    });
    expect([...approvedMemoryRows()][0]!.slice(0, 4)).toEqual([
      "Ellen Smith",
      "friend@example.com",
      "",
      "She sang at every picnic by the river.",
    ]);
  });

  it("records nothing when the name and message are sent unchanged", () => {
    const id = memory("Ann");
    const same = getMemory(id)!;
    expect(updateMemory(id, { name: same.name, message: same.message }, admin)).toMatchObject({ editedBy: null, originalName: null });
  });
});

describe("deleting a memory", () => {
  it("removes it from the guest book and the spreadsheet for good", () => {
    const id = memory("Mallory");
    expect(deleteMemory(id, admin)).toBe(true);
    expect(getMemory(id)).toBeUndefined();
    expect(guestBook()).toEqual([]);
    expect(csvNames()).toEqual([]);
    expect(deleteMemory(id, admin)).toBe(false);
  });

  it("changes nothing when the admin's session has ended", () => {
    const id = memory("Still Here");
    expect(() => deleteMemory(id, endedSession)).toThrow(Response);
    expect(getMemory(id)).toBeDefined();
  });
});

describe("the Published list of memories", () => {
  it("holds published and hidden memories (never pending or rejected), newest first, in keyset pages, searchable by name", () => {
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push(memory(`Friend ${i}`));
    memory("Waiting", undefined, "PENDING");
    memory("Turned Down", undefined, "REJECTED");
    updateMemory(ids[1]!, { status: "HIDDEN" }, admin);
    // Distinct times, so the order does not hang on ids alone.
    for (const [i, id] of ids.entries())
      db.update(memories)
        .set({ createdAt: new Date(1_000_000 + i * 1000) })
        .where(eq(memories.id, id))
        .run();

    const first = listPublishedMemories({ limit: 2 });
    expect(first.items.map((m) => m.name)).toEqual(["Friend 5", "Friend 4"]);
    expect(first.next).not.toBeNull();
    // A memory published meanwhile (newer) neither repeats nor pushes one past.
    memory("Newcomer");
    const cursor = JSON.parse(JSON.stringify({ createdAt: 1_000_000 + 3000, id: ids[3]! }));
    const second = listPublishedMemories({ limit: 2, before: cursor });
    expect(second.items.map((m) => [m.name, m.status])).toEqual([
      ["Friend 3", "APPROVED"],
      ["Friend 2", "HIDDEN"],
    ]);
    expect(listPublishedMemories({ limit: 2, before: { createdAt: 1_000_000 + 1000, id: ids[1]! } })).toEqual({
      items: [expect.objectContaining({ name: "Friend 1" })],
      next: null,
    });
    expect(listPublishedMemories({ search: "FRIEND 2" }).items.map((m) => m.name)).toEqual(["Friend 2"]);
    expect(listPublishedMemories({ search: "waiting" }).items).toEqual([]);
    expect(listPublishedMemories({ search: "%" }).items).toEqual([]);
  });
});

describe("unpublishing and deleting a photo", () => {
  it("hides it from the gallery, its page, the slideshow, the keepsake and its public files; publishing it again brings it back", async () => {
    const id = await photo("picnic.jpg");
    const thumbnail = path.posix.basename(getUpload(id)!.thumbnailKey!);
    expect(listGallery({ type: "ALL", limit: 20 }).items.map((item) => item.id)).toContain(id);
    expect(findMediaFile(id, thumbnail)?.media.public).toBe(true);
    const photosBefore = archiveContents().photos;
    const version = contentVersion();

    await setUploadStatus(id, "HIDDEN", admin);
    expect(contentVersion()).not.toBe(version);
    expect(listGallery({ type: "ALL", limit: 20 }).items.map((item) => item.id)).not.toContain(id);
    expect(getGalleryItem(id)).toBeUndefined();
    expect(listSlideshow().map((item) => item.id)).not.toContain(id);
    expect(findMediaFile(id, thumbnail)?.media.public).toBe(false);
    expect(archiveContents().photos).toBe(photosBefore - 1);
    expect(listPublishedUploads({}).items.find((item) => item.id === id)?.status).toBe("HIDDEN");
    // Its files are kept.
    expect(storedFiles()).toEqual(expect.arrayContaining(filesOf(id)));

    await setUploadStatus(id, "APPROVED", admin);
    expect(getGalleryItem(id)).toBeDefined();
    expect(findMediaFile(id, thumbnail)?.media.public).toBe(true);
  });

  it("refuses to hide a photo still waiting for review", async () => {
    const id = await photo("waiting.jpg", "PENDING");
    await expect(setUploadStatus(id, "HIDDEN", admin)).rejects.toMatchObject({ status: 409, field: "status" });
    expect(getUpload(id)?.status).toBe("PENDING");
  });

  it("deletes the row, then every file; a refused delete keeps both", async () => {
    const id = await photo("to-delete.jpg");
    const files = filesOf(id);
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(storedFiles()).toEqual(expect.arrayContaining(files));

    await expect(deleteUpload(id, endedSession)).rejects.toBeInstanceOf(Response);
    expect(getUpload(id)).toBeDefined();
    expect(storedFiles()).toEqual(expect.arrayContaining(files));

    expect(await deleteUpload(id, admin)).toMatchObject({ id });
    expect(getUpload(id)).toBeUndefined();
    for (const file of storedFiles()) expect(files.some((key) => file.endsWith(path.basename(key)))).toBe(false);
    expect(findMediaFile(id, path.posix.basename(files[0]!))).toBeUndefined();
    expect(await deleteUpload(id, admin)).toBeUndefined();
  });
});

/** The keepsake ZIP's entries: names, and index.html's text. */
async function keepsake(): Promise<{ names: string[]; index: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of createFamilyArchive()) chunks.push(chunk as Buffer);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.concat(chunks), { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const names: string[] = [];
  let index = "";
  await new Promise<void>((resolve, reject) => {
    zip.on("error", reject);
    zip.on("end", resolve);
    zip.on("entry", (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      if (entry.fileName !== "index.html") return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        stream.on("data", (chunk: Buffer) => (index += chunk.toString("utf8")));
        stream.on("end", () => zip.readEntry());
      });
    });
    zip.readEntry();
  });
  return { names, index };
}

describe("the keepsake follows what is published now", () => {
  it("leaves out what was unpublished or deleted, and holds a memory as it was corrected", async () => {
    const kept = memory("Ann Lee", "She taught me to swim in the cold lake.");
    const hidden = memory("Bo Hidden", "A memory the family took back.");
    const gone = memory("Cy Gone", "A memory the family deleted.");
    updateMemory(kept, { message: "She taught me to swim in the cold river." }, admin);
    updateMemory(hidden, { status: "HIDDEN" }, admin);
    deleteMemory(gone, admin);
    const shown = await photo("shown.jpg");
    const unpublished = await photo("unpublished.jpg");
    const deleted = await photo("deleted.jpg");
    await setUploadStatus(unpublished, "HIDDEN", admin);
    await deleteUpload(deleted, admin);

    const { names, index } = await keepsake();
    expect(index).toContain("She taught me to swim in the cold river.");
    expect(index).not.toContain("cold lake");
    expect(index).not.toContain("Bo Hidden");
    expect(index).not.toContain("Cy Gone");
    const photos = names.filter((name) => name.startsWith("photos/"));
    expect(photos.some((name) => name.endsWith("shown.jpg"))).toBe(true);
    expect(photos.some((name) => name.endsWith("unpublished.jpg") || name.endsWith("deleted.jpg"))).toBe(false);
    expect(getUpload(shown)?.status).toBe("APPROVED");
  });
});

describe("the Published view's forms (without JavaScript)", () => {
  it("unpublish and publish again from the list, back to the same search and page, with a toast", async () => {
    const id = memory("Cousin Ellen");
    const list = "/admin/published/memories?q=ellen";
    const hidden = await answer(() =>
      memoriesList.action({ request: post(list, { intent: "unpublish", id: String(id) }), params: {}, context } as never),
    );
    expect([hidden.status, hidden.headers.get("Location")]).toEqual([302, list]);
    expect(toastOf(hidden)?.title).toBe("Memory Unpublished");
    expect(getMemory(id)?.status).toBe("HIDDEN");
    const shown = await answer(() =>
      memoriesList.action({ request: post(list, { intent: "publish", id: String(id) }), params: {}, context } as never),
    );
    expect(toastOf(shown)?.title).toBe("Memory Published");
    expect(getMemory(id)?.status).toBe("APPROVED");

    const page = await answer(() => memoriesList.loader({ request: get(list), params: {}, context } as never));
    const data = (await page.json()) as { page: { items: { name: string }[] }; search: string };
    expect(data.search).toBe("ellen");
    expect(data.page.items.map((m) => m.name)).toEqual(["Cousin Ellen"]);
  });

  it("edit: a refused correction comes back with its message; a good one is saved and goes back to the list", async () => {
    const id = memory("Elen");
    const url = `/admin/published/memories/${id}/edit?q=el`;
    const params = { id: String(id) };
    const refused = await answer(() =>
      editMemoryRoute.action({ request: post(url, { name: " ", message: "short" }), params, context } as never),
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as { result: { error: Record<string, string[]> } };
    expect(reply.result.error).toMatchObject({ name: ["Name is required"], message: ["Message must be at least 10 characters"] });
    expect(getMemory(id)?.name).toBe("Elen");

    const saved = await answer(() =>
      editMemoryRoute.action({
        request: post(url, { name: "Ellen", message: "A memory of the lake, corrected." }),
        params,
        context,
      } as never),
    );
    expect([saved.status, saved.headers.get("Location"), toastOf(saved)?.title]).toEqual([
      302,
      "/admin/published/memories?q=el",
      "Memory Corrected",
    ]);
    expect(getMemory(id)).toMatchObject({ name: "Ellen", originalName: "Elen", editedBy: "keeper" });
  });

  it("delete asks first on a page of its own (GET changes nothing), and only its own form deletes", async () => {
    const id = memory("Mallory");
    const url = `/admin/published/memories/${id}/delete`;
    const question = await answer(() => deleteMemoryRoute.loader({ request: get(url), params: { id: String(id) }, context } as never));
    expect(question.status).toBe(200);
    expect(getMemory(id)).toBeDefined();
    const wrong = await answer(() => deleteMemoryRoute.action({ request: post(url, {}), params: { id: String(id) }, context } as never));
    expect(wrong.status).toBe(400);
    expect(getMemory(id)).toBeDefined();
    const done = await answer(() =>
      deleteMemoryRoute.action({ request: post(url, { intent: "delete" }), params: { id: String(id) }, context } as never),
    );
    expect([done.headers.get("Location"), toastOf(done)?.title]).toEqual(["/admin/published/memories", "Memory Deleted"]);
    expect(getMemory(id)).toBeUndefined();
    const gone = await answer(() => deleteMemoryRoute.loader({ request: get(url), params: { id: String(id) }, context } as never));
    expect(gone.status).toBe(404);
  });

  it("photos: unpublish from the list, then delete after the question", async () => {
    const id = await photo("garden.jpg");
    const hidden = await answer(() =>
      uploadsList.action({
        request: post("/admin/published/uploads", { intent: "unpublish", id: String(id) }),
        params: {},
        context,
      } as never),
    );
    expect(toastOf(hidden)?.title).toBe("Upload Unpublished");
    expect(getUpload(id)?.status).toBe("HIDDEN");
    const url = `/admin/published/uploads/${id}/delete`;
    expect((await answer(() => deleteUploadRoute.loader({ request: get(url), params: { id: String(id) }, context } as never))).status).toBe(
      200,
    );
    const done = await answer(() =>
      deleteUploadRoute.action({ request: post(url, { intent: "delete" }), params: { id: String(id) }, context } as never),
    );
    expect(toastOf(done)?.title).toBe("Upload Deleted");
    expect(getUpload(id)).toBeUndefined();
  });

  it("a poem's Delete asks first: the old form's press goes to the question, and only the question's form deletes", async () => {
    const poem = createPoem({ title: "Remember", content: "Remember me when I am gone away" }, admin);
    const pressed = await answer(() =>
      poemsTab.action({ request: post("/admin/poems", { intent: "delete", id: String(poem.id) }), params: {}, context } as never),
    );
    expect([pressed.status, pressed.headers.get("Location")]).toEqual([302, `/admin/poems/${poem.id}/delete`]);
    expect(listPoems().map((p) => p.id)).toContain(poem.id);
    const url = `/admin/poems/${poem.id}/delete`;
    expect(
      (await answer(() => deletePoemRoute.loader({ request: get(url), params: { id: String(poem.id) }, context } as never))).status,
    ).toBe(200);
    const done = await answer(() =>
      deletePoemRoute.action({ request: post(url, { intent: "delete" }), params: { id: String(poem.id) }, context } as never),
    );
    expect(toastOf(done)?.title).toBe("Poem Deleted");
    expect(listPoems().map((p) => p.id)).not.toContain(poem.id);
  });
});

describe("the admin API", () => {
  const patch = (id: number | string, body: unknown) =>
    answer(() =>
      apiMemory.action({ request: api(`/api/admin/memories/${id}`, "PATCH", body), params: { id: String(id) }, context } as never),
    );

  it("PATCH /api/admin/memories/{id} unpublishes, publishes again and corrects, with the form's rules", async () => {
    const id = memory("Elen");
    const hidden = await patch(id, { status: "HIDDEN" });
    expect(hidden.status).toBe(200);
    expect(await hidden.json()).toMatchObject({ id, status: "HIDDEN" });
    const corrected = await patch(id, { name: "Ellen", message: "A corrected memory of the lake.", status: "APPROVED" });
    expect(await corrected.json()).toMatchObject({ name: "Ellen", status: "APPROVED", originalName: "Elen", editedBy: "keeper" });

    expect(await (await patch(id, {})).json()).toEqual({ errors: { status: ["Send a status, a name or a message to change"] } });
    expect(await (await patch(id, { status: "GONE" })).json()).toEqual({
      errors: { status: ["status must be APPROVED, REJECTED or HIDDEN"] },
    });
    expect(await (await patch(id, { message: "short" })).json()).toEqual({
      errors: { message: ["Message must be at least 10 characters"] },
    });
    expect((await patch(999999, { status: "HIDDEN" })).status).toBe(404);
    const pending = memory("Waiting", undefined, "PENDING");
    const conflict = await patch(pending, { status: "HIDDEN" });
    expect([conflict.status, await conflict.json()]).toEqual([409, { errors: { status: [ONLY_PUBLISHED_CAN_BE_HIDDEN] } }]);
  });

  it("DELETE /api/admin/memories/{id} and /api/admin/uploads/{id} answer 204, then 404", async () => {
    const id = memory("Mallory");
    const del = (url: string, params: Record<string, string>, route: typeof apiMemory | typeof apiUpload) =>
      answer(() => route.action({ request: api(url, "DELETE"), params, context } as never));
    expect((await del(`/api/admin/memories/${id}`, { id: String(id) }, apiMemory)).status).toBe(204);
    expect((await del(`/api/admin/memories/${id}`, { id: String(id) }, apiMemory)).status).toBe(404);
    const upload = await photo("api.jpg");
    expect((await del(`/api/admin/uploads/${upload}`, { id: String(upload) }, apiUpload)).status).toBe(204);
    const gone = await del(`/api/admin/uploads/${upload}`, { id: String(upload) }, apiUpload);
    expect([gone.status, await gone.json()]).toEqual([404, { errors: { id: ["There is no upload with this id"] } }]);
    expect(getUpload(upload)).toBeUndefined();
  });

  it("PATCH /api/admin/uploads/{id} with HIDDEN unpublishes; without a session every call is a 401", async () => {
    const id = await photo("hide.jpg");
    const hidden = await answer(() =>
      apiUpload.action({
        request: api(`/api/admin/uploads/${id}`, "PATCH", { status: "HIDDEN" }),
        params: { id: String(id) },
        context,
      } as never),
    );
    expect(await hidden.json()).toMatchObject({ id, status: "HIDDEN" });
    for (const [route, method] of [
      [apiMemory, "DELETE"],
      [apiUpload, "DELETE"],
      [apiMemory, "PATCH"],
    ] as const) {
      const request = new Request(`${ORIGIN}/api/admin/x/${id}`, { method, headers: { "Content-Type": "application/json" }, body: "{}" });
      const refused = await answer(() => route.action({ request, params: { id: String(id) }, context } as never));
      expect(refused.status).toBe(401);
    }
    expect(getUpload(id)).toBeDefined();
  });

  it("GET /api/admin/published-memories and -uploads list the Published view's pages, searchable, with a Link to the next", async () => {
    for (let i = 1; i <= 3; i++) memory(`Pal ${i}`);
    const first = await answer(() =>
      apiPublishedMemories.loader({ request: get("/api/admin/published-memories?limit=2&q=pal"), params: {}, context } as never),
    );
    expect(((await first.json()) as { name: string }[]).map((m) => m.name)).toEqual(["Pal 3", "Pal 2"]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")![1]!;
    const second = await answer(() => apiPublishedMemories.loader({ request: get(next), params: {}, context } as never));
    expect(((await second.json()) as { name: string }[]).map((m) => m.name)).toEqual(["Pal 1"]);
    const bad = await answer(() =>
      apiPublishedMemories.loader({ request: get("/api/admin/published-memories?before=nope"), params: {}, context } as never),
    );
    expect(bad.status).toBe(400);
    const uploadsPage = await answer(() =>
      apiPublishedUploads.loader({ request: get("/api/admin/published-uploads?q=ann%20lee"), params: {}, context } as never),
    );
    expect(uploadsPage.status).toBe(200);
    expect(Array.isArray(await uploadsPage.json())).toBe(true);
  });
});
