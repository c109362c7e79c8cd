// The voice form over HTTP against the production server (`node
// server/index.mjs` on the build): sent as a browser without JavaScript sends
// it and as the in-page recorder does, through the whole request pipeline
// (the origin check, the security headers, the render cache); the family
// publishes; the voice is heard on the guest book, on its own page and in
// /api/gallery, in the one copy every browser plays.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCookieFor, request, requireBuild, scratchDir, startSite, type Site } from "../support/site-process";
import { makeVoiceFile } from "../support/voice-fixtures";

const ADMIN = { username: "keeper", password: "a-long-enough-password" };
let site: Site;
let dir: string;
let cookie: string;
let voice: Buffer;

beforeAll(async () => {
  requireBuild();
  dir = scratchDir();
  site = await startSite(dir, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  cookie = await adminCookieFor(site, ADMIN);
  voice = readFileSync(makeVoiceFile(dir, "m4a", { seconds: 5 }));
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

const origin = () => `http://127.0.0.1:${site.port}`;

/** The form as a browser sends it, from this site's own page. */
async function sendForm(
  url: string,
  fields: Record<string, string>,
  recording: Buffer | null = voice,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (recording) form.append("recording", new Blob([new Uint8Array(recording)], { type: "audio/mp4" }), "voice-memo.m4a");
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return request(site.port, "POST", url, {
    body,
    headers: { "Content-Type": encoded.headers.get("Content-Type")!, Origin: origin(), ...headers },
  });
}

async function pendingVoices() {
  const list = await request(site.port, "GET", "/api/admin/pending-uploads", { headers: { Cookie: cookie } });
  return JSON.parse(list.body) as {
    id: number;
    type: string;
    submittedBy: string;
    caption: string | null;
    processing: { state: string };
  }[];
}

describe("the voice form over HTTP", () => {
  it("lets the pages that show the form use the microphone, and no other site", async () => {
    for (const page of ["/guestbook", "/share", "/voices"]) {
      const answer = await request(site.port, "GET", page);
      expect(answer.status, page).toBe(200);
      expect(answer.headers["permissions-policy"], page).toContain("microphone=(self)");
      expect(answer.body, page).toContain('<form id="voice-form" method="post" action="/voices" encType="multipart/form-data"');
    }
  });

  it("is refused from another site", async () => {
    const page = await sendForm("/voices", { name: "Ann" }, voice, { Origin: "https://elsewhere.example" });
    expect(page.status).toBe(403);
    const api = await sendForm("/api/voices", { name: "Ann" }, voice, { Origin: "https://elsewhere.example" });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toEqual({ errors: { origin: ["Cross-origin requests are not allowed."] } });
  });

  it("without JavaScript: a voice goes back to its page with the toast; a refusal is the /voices page with what was typed", async () => {
    const sent = await sendForm("/voices", { from: "/share", name: "Aunt May", line: "For Jo", canDisplay: "on" });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe("/share");
    const toastCookie = (sent.headers["set-cookie"] ?? []).find((line) => line.startsWith("__toast="))!.split(";")[0]!;
    const back = await request(site.port, "GET", "/share", { headers: { Cookie: toastCookie } });
    expect(back.body).toContain("Voice Memory Submitted");

    const refused = await sendForm("/voices", { from: "/guestbook", name: "Ben", email: "ben@home", line: "Happy birthday" });
    expect(refused.status).toBe(400);
    expect(refused.headers["content-type"]).toContain("text/html");
    expect(refused.body).toContain("<title>Leave a voice memory |");
    expect(refused.body).toContain("Valid email is required");
    expect(refused.body).toContain('value="Ben"');
    expect(refused.body).toContain(">Happy birthday</textarea>");
    expect(refused.body).toContain('name="from" value="/guestbook"');
    expect((await pendingVoices()).map((upload) => upload.submittedBy)).toEqual(["Aunt May"]);
  });

  it("from the recorder: 201, or each message under its field; GET is not an answer there", async () => {
    const sent = await sendForm("/api/voices", { name: "Cat", canDisplay: "on" });
    expect(sent.status).toBe(201);
    expect(JSON.parse(sent.body)).toMatchObject({ status: "PENDING" });
    const refused = await sendForm("/api/voices", { name: "" }, null);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({
      errors: { name: ["Name is required"], recording: ["Please record or choose a voice memory to send."] },
    });
    const get = await request(site.port, "GET", "/api/voices");
    expect(get.status).toBe(405);
  });

  it("once published, a voice with permission is heard on the guest book, on its own page and in /api/gallery", async () => {
    const sent = await sendForm("/voices", { name: "Grandpa Ted", line: "Sung at the lake", canDisplay: "on" });
    expect(sent.status).toBe(303);
    let id = 0;
    await expect
      .poll(
        async () => {
          const found = (await pendingVoices()).find((upload) => upload.submittedBy === "Grandpa Ted");
          id = found?.id ?? 0;
          return found?.processing.state;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe("ready");
    expect((await request(site.port, "GET", `/voices/${id}`)).status).toBe(404);
    const published = await request(site.port, "PATCH", `/api/admin/uploads/${id}`, {
      body: JSON.stringify({ status: "APPROVED" }),
      headers: { Cookie: cookie, "Content-Type": "application/json", Origin: origin() },
    });
    expect(published.status, published.body).toBe(200);

    const guestbook = await request(site.port, "GET", "/guestbook");
    const voices = guestbook.body.slice(guestbook.body.indexOf('<section id="voices"'));
    expect(voices).toContain("Grandpa Ted");
    expect(voices).toContain("Sung at the lake");
    const src = /<audio controls="" preload="none" src="([^"]+)" aria-label="Voice memory from Grandpa Ted, 0:05"/.exec(voices)?.[1];
    expect(src).toMatch(/^\/media\/\d+\/[A-Za-z0-9_-]+-voice\.m4a$/);
    const copy = await fetch(`${origin()}${src}`, { headers: { Range: "bytes=0-99" } });
    expect(copy.status).toBe(206);
    expect(copy.headers.get("content-type")).toBe("audio/mp4");

    const own = await request(site.port, "GET", `/voices/${id}`);
    expect(own.status).toBe(200);
    expect(own.body).toContain("<title>Voice memory from Grandpa Ted |");
    expect(own.body).toContain('href="/guestbook#voices"');

    const gallery = JSON.parse((await request(site.port, "GET", "/api/gallery?type=AUDIO")).body) as { id: number; url: string }[];
    expect(gallery).toEqual([
      expect.objectContaining({ id, url: src, senderName: "Grandpa Ted", caption: "Sung at the lake", durationSec: 5 }),
    ]);
  }, 90_000);
});
