// The upload intake against the production server (`node server/index.mjs`
// on the build): the plain form's memory use, and what a browser's upload
// dialog meets over real HTTP (the disk driver's PUT is answered by the Node
// server itself, ahead of Remix).
import { once } from "node:events";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, requireBuild, residentBytes, scratchDir, startSite, type Site } from "../support/site-process";

let site: Site;

beforeAll(async () => {
  requireBuild();
  site = await startSite(scratchDir());
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

const MiB = 1024 * 1024;

/**
 * Sends a form whose first part header goes on and on, as a script would:
 * without stopping for the answer, until the server closes the connection or
 * `limit` bytes have been sent.
 */
async function sendEndlessPartHeader(port: number, limit: number) {
  const boundary = "----formBoundaryEndless";
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  let answer = "";
  let closed = false;
  let wake = () => {};
  const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.on("data", (data: Buffer) => {
    answer += data.toString("latin1");
    wake();
  });
  socket.on("error", () => undefined);
  socket.on("close", () => {
    closed = true;
    wake();
  });
  socket.on("drain", () => wake());
  socket.write(
    `POST /share HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${1024 * MiB}\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nX-Filler: `,
  );
  const filler = Buffer.alloc(64 * 1024, "a");
  let sent = 0;
  while (sent < limit && !closed) {
    if (!socket.write(filler)) await new Promise<void>((resolve) => (wake = resolve));
    sent += filler.length;
  }
  return {
    sent,
    /** The whole answer, once the server has ended the connection (it says Connection: close). */
    answer: async () => {
      if (!closed) await ended;
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), text: answer };
    },
  };
}

describe("the share form's memory use", () => {
  it("refuses a part header that never ends, stays within tens of MB and answers normally afterwards", { timeout: 120_000 }, async () => {
    expect(await get(site.port, "/share")).toBe(200);
    const before = residentBytes(site.pid);

    const sending = await sendEndlessPartHeader(site.port, 256 * MiB);
    const after = residentBytes(site.pid);
    console.log(
      `endless part header: ${Math.round(sending.sent / MiB)} MiB sent, RSS ${Math.round(before / MiB)} → ${Math.round(after / MiB)} MiB`,
    );
    expect(after - before).toBeLessThan(48 * MiB);

    const answer = await sending.answer();
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("Part of the form could not be read");
    expect(await get(site.port, "/healthz")).toBe(200);
    expect(await get(site.port, "/share")).toBe(200);
  });
});

describe("the upload API over HTTP", () => {
  const url = (urlPath: string) => `http://127.0.0.1:${site.port}${urlPath}`;
  const postJson = (urlPath: string, data: unknown) =>
    fetch(url(urlPath), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });

  it("a finished multipart upload's location answers with what the site knows of the file", async () => {
    const video = readFileSync(path.resolve(import.meta.dirname, "../fixtures/sample.mp4"));
    const created = await postJson("/api/uploads/s3/multipart", { filename: "clip.mp4", type: "video/mp4", size: video.length });
    expect(created.status).toBe(201);
    const { uploadId, key } = (await created.json()) as { uploadId: string; key: string };
    const query = `?key=${encodeURIComponent(key)}`;
    const { url: partUrl } = (await (await fetch(url(`/api/uploads/s3/multipart/${uploadId}/1${query}`))).json()) as { url: string };
    const part = await fetch(partUrl, { method: "PUT", body: new Uint8Array(video) });
    expect(part.status).toBe(200);
    const done = await postJson(`/api/uploads/s3/multipart/${uploadId}/complete${query}`, {
      parts: [{ PartNumber: 1, ETag: part.headers.get("ETag") }],
    });
    expect(done.status).toBe(200);
    const { location } = (await done.json()) as { location: string };

    const described = await fetch(location);
    expect(described.status).toBe(200);
    expect(await described.json()).toEqual({ key, status: "uploaded", size: video.length });
    expect(
      (await postJson("/api/uploads/complete", { uploadURL: location, submittedBy: "Ben (ben@example.com)", originalName: "clip.mp4" }))
        .status,
    ).toBe(201);
    expect(await (await fetch(location)).json()).toEqual({ key, status: "completed" });
    expect((await fetch(url("/api/uploads/objects/originals/AAAAAAAAAAAAAAAAAAAAAA.mp4"))).status).toBe(404);
  });

  it("a PUT that does not say its length is refused with 411 before anything is stored", async () => {
    const { uploadURL } = (await (await fetch(url("/api/uploads/sign"), { method: "POST" })).json()) as { uploadURL: string };
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(1000));
        controller.close();
      },
    });
    const response = await fetch(uploadURL, { method: "PUT", body: chunked, duplex: "half" } as RequestInit);
    expect(response.status).toBe(411);
    expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual(["file"]);
  });

  it("a signed upload address takes only PUT: any other method is a 405 naming it, and nothing is stored", async () => {
    const { uploadURL } = (await (await fetch(url("/api/uploads/sign"), { method: "POST" })).json()) as { uploadURL: string };
    for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
      const response = await fetch(uploadURL, { method, ...(method === "GET" ? {} : { body: "not a file" }) });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe("PUT");
      expect(await response.json()).toEqual({ errors: { method: ["Use PUT here"] } });
    }
    const put = await fetch(uploadURL, { method: "PUT", body: new Uint8Array(1000) });
    expect(put.status).toBe(200);
  });
});
