// Voice memories through the JSON API against the production server (`node
// server/index.mjs` on the build): sign, PUT, complete with type AUDIO, as
// the upload dialog sends photos; the family publishes; anyone fetches the
// one copy every browser plays, at -16 LUFS.
import { writeFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookieFor, postJson, request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";
import { makeVoiceFile, measureLufs, probe, type VoiceFormat } from "../support/voice-fixtures";

const ADMIN = { username: "keeper", password: "a-long-enough-password" };
let site: Site;
let dir: string;
let cookie: string;

beforeAll(async () => {
  requireBuild();
  dir = scratchDir();
  site = await startSite(dir, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  cookie = await adminCookieFor(site, ADMIN);
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

/** Sends a file the way the upload dialog does (sign, PUT, complete), with `details` in the completion. */
async function send(file: string, details: Record<string, unknown> = {}) {
  const signed = await postJson(site.port, "/api/uploads/sign", { filename: path.basename(file) });
  expect(signed.status).toBe(200);
  const { uploadURL } = JSON.parse(signed.body) as { uploadURL: string };
  const target = new URL(uploadURL);
  const put = await request(site.port, "PUT", target.pathname + target.search, { body: readFileSync(file) });
  expect(put.status).toBeLessThan(300);
  return postJson(site.port, "/api/uploads/complete", {
    uploadURL,
    submittedBy: "Aunt May (may@example.com)",
    type: "AUDIO",
    originalName: path.basename(file),
    ...details,
  });
}

async function publish(id: number) {
  const answer = await request(site.port, "PATCH", `/api/admin/uploads/${id}`, {
    body: JSON.stringify({ status: "APPROVED" }),
    headers: { Cookie: cookie, "Content-Type": "application/json" },
  });
  expect(answer.status, answer.body).toBe(200);
}

/** The pending upload's view for the family, once its processing is done. */
async function processed(id: number) {
  let found: { processing: { state: string }; durationSec: number | null; url: string } | undefined;
  await expect
    .poll(
      async () => {
        const list = await request(site.port, "GET", "/api/admin/pending-uploads", { headers: { Cookie: cookie } });
        found = (JSON.parse(list.body) as { id: number; processing: { state: string }; durationSec: number | null; url: string }[]).find(
          (upload) => upload.id === id,
        );
        return found?.processing.state;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe("ready");
  return found!;
}

describe("a voice memory through the API", () => {
  it.each<[VoiceFormat, string]>([
    ["m4a", "an iPhone's Voice Memos"],
    ["webm", "Chrome's recorder"],
    ["3gp", "an Android phone"],
  ])(
    "takes a %s recording (%s), and once published everyone gets an AAC M4A at -16 LUFS",
    async (format) => {
      const original = makeVoiceFile(dir, format, { seconds: 9, lufs: -34 });
      const completed = await send(original, { caption: "For Jo, from the lake", canDisplay: true });
      expect(completed.status, completed.body).toBe(201);
      const upload = JSON.parse(completed.body) as { id: number; type: string; status: string; url: string };
      expect(upload).toMatchObject({ type: "AUDIO", status: "PENDING" });
      const ready = await processed(upload.id);
      expect(ready.durationSec).toBe(9);

      // Pending: nobody but the family hears it.
      expect((await fetch(`http://127.0.0.1:${site.port}${ready.url}`)).status).toBe(404);
      await publish(upload.id);
      const listed = ready;
      const copy = await fetch(`http://127.0.0.1:${site.port}${listed!.url}`);
      expect(copy.status).toBe(200);
      expect(copy.headers.get("content-type")).toBe("audio/mp4");
      const file = path.join(dir, `published-${format}.m4a`);
      writeFileSync(file, Buffer.from(await copy.arrayBuffer()));
      expect(probe(file).codecs).toEqual(["aac"]);
      const lufs = measureLufs(file);
      console.log(`${format}: made at -34 LUFS, published at ${lufs} LUFS`);
      expect(Math.abs(lufs - -16)).toBeLessThanOrEqual(1);
      // A phone's player asks for parts of it.
      const part = await fetch(`http://127.0.0.1:${site.port}${listed!.url}`, { headers: { Range: "bytes=0-99" } });
      expect(part.status).toBe(206);
    },
    90_000,
  );

  it("refuses a recording of ten minutes and one second, saying how long it is", async () => {
    const completed = await send(makeVoiceFile(dir, "webm", { seconds: 601 }));
    expect(completed.status).toBe(400);
    expect(JSON.parse(completed.body)).toEqual({
      errors: { file: ["This recording is 10:01 long. Voice memories can be at most 10 minutes."] },
    });
  }, 90_000);

  it("refuses what is not a recording, and a line that is too long, with their reasons", async () => {
    const text = path.join(dir, "words.m4a");
    writeFileSync(text, "Only words, typed into a file that claims to be a recording.");
    const refused = await send(text);
    expect(refused.status).toBe(415);
    expect(JSON.parse(refused.body)).toEqual({
      errors: {
        file: ["This file is not a voice recording we can accept. Voice memories can be M4A, WebM, Ogg, 3GP, MP3 or WAV recordings."],
      },
    });
    const long = await send(makeVoiceFile(dir, "m4a", { seconds: 1 }), { caption: "x".repeat(301) });
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body)).toEqual({ errors: { caption: ["caption must be at most 300 characters"] } });
  });

  it("takes a voice sent with a name alone, and keeps one without permission from visitors", async () => {
    const completed = await send(makeVoiceFile(dir, "mp3", { seconds: 2 }), { submittedBy: "Grandpa Ted", canDisplay: false });
    expect(completed.status, completed.body).toBe(201);
    const { id } = JSON.parse(completed.body) as { id: number };
    const { url } = await processed(id);
    await publish(id);
    const gallery = JSON.parse((await request(site.port, "GET", "/api/gallery")).body) as { id: number }[];
    expect(gallery).not.toContainEqual(expect.objectContaining({ id }));
    expect((await fetch(`http://127.0.0.1:${site.port}${url}`)).status).toBe(404);
    // The family still hears it.
    expect((await fetch(`http://127.0.0.1:${site.port}${url}`, { headers: { Cookie: cookie } })).status).toBe(200);
  });
});
