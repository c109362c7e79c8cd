// What an address for something that does not exist answers: the API names
// the field in its error shape, pages a plain 404 their error page shows.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminUsers } from "../../db/schema";
import { startAdminSession } from "~/admins/session.server";
import { db } from "~/platform/db.server";
import { upsertAdmin } from "~/admins/admin.server";
import { loader as memoryPage } from "~/routes/admin.memories.$id";
import { loader as uploadPage } from "~/routes/admin.uploads.$id";
import { action as patchMemory, loader as getMemory } from "~/routes/api.admin.memories.$id";
import { action as deletePoem } from "~/routes/api.admin.poems.$id";
import { action as patchUpload, loader as getUpload } from "~/routes/api.admin.uploads.$id";
import { action as rotateUpload } from "~/routes/api.admin.uploads.$id.rotate";
import { loader as uploadedObject } from "~/routes/api.uploads.objects.$";
import { loader as galleryItemPage } from "~/routes/gallery_.$id";

const ORIGIN = "http://memorial.test";
let cookie: string;

beforeAll(async () => {
  await upsertAdmin("keeper", "the-right-password");
  const admin = db.select().from(adminUsers).where(eq(adminUsers.username, "keeper")).get()!;
  cookie = (await startAdminSession(new Request(`${ORIGIN}/admin`), { id: admin.id, username: admin.username })).split(";")[0]!;
});

type Handler = (args: never) => unknown;

/** The Response a route returned or threw. */
async function answer(handler: Handler, url: string, params: Record<string, string>, init: RequestInit = {}): Promise<Response> {
  const headers = { Cookie: cookie, ...(init.body ? { "Content-Type": "application/json" } : {}) };
  const request = new Request(`${ORIGIN}${url}`, { ...init, headers });
  const result = await Promise.resolve()
    .then(() => handler({ request, params, context: {} } as never))
    .catch((thrown: unknown) => thrown);
  if (!(result instanceof Response)) throw new Error(`expected a Response, got ${String(result)}`);
  return result;
}

describe("the API answers an unknown id with 404 and the field it concerns", () => {
  const status = JSON.stringify({ status: "APPROVED" });
  it.each([
    ["GET a memory", getMemory, "/api/admin/memories/999", {}, { id: ["There is no memory with this id"] }],
    [
      "PATCH a memory",
      patchMemory,
      "/api/admin/memories/999",
      { method: "PATCH", body: status },
      { id: ["There is no memory with this id"] },
    ],
    ["GET an upload", getUpload, "/api/admin/uploads/999", {}, { id: ["There is no upload with this id"] }],
    [
      "PATCH an upload",
      patchUpload,
      "/api/admin/uploads/999",
      { method: "PATCH", body: status },
      { id: ["There is no upload with this id"] },
    ],
    [
      "rotate an upload",
      rotateUpload,
      "/api/admin/uploads/999/rotate",
      { method: "POST", body: JSON.stringify({ direction: "left" }) },
      { id: ["There is no upload with this id"] },
    ],
    ["DELETE a poem", deletePoem, "/api/admin/poems/999", { method: "DELETE" }, { id: ["There is no poem with this id"] }],
  ] as const)("%s", async (_, handler, url, init, errors) => {
    const response = await answer(handler as Handler, url, { id: "999" }, init);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ errors });
  });

  it("GET an uploaded file's location that was never uploaded", async () => {
    const response = await answer(uploadedObject as Handler, "/api/uploads/objects/originals/AAAAAAAAAAAAAAAAAAAAAA.jpg", {
      "*": "originals/AAAAAAAAAAAAAAAAAAAAAA.jpg",
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ errors: { key: ["There is no such uploaded file."] } });
  });
});

describe("pages for something that does not exist are a 404", () => {
  it.each([
    ["a memory in the admin panel", memoryPage, "/admin/memories/999"],
    ["an upload in the admin panel", uploadPage, "/admin/uploads/999"],
    ["a gallery item", galleryItemPage, "/gallery/999"],
  ] as const)("%s", async (_, handler, url) => {
    const response = await answer(handler as Handler, url, { id: "999" });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not found");
  });
});
