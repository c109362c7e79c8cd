// A full disk against the real production server: the database and the
// media live on a small tmpfs, which is then filled to the last byte. Every
// write path is hammered; every answer that acknowledged something (a 2xx, a
// redirect with a confirmation) must be in the database after a restart, and
// nothing that was refused may be. Reads and /healthz keep answering.
//
// SQLite commits an autocommit INSERT … RETURNING when the statement halts,
// and reading only its first row (better-sqlite3's .get()) swallowed the
// commit's SQLITE_FULL: the site thanked visitors for memories it had not
// kept. This test is what caught it.
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { STORAGE_FULL } from "~/platform/refusal.server";
import { manageSites, postJson, request, startSite, type Answer } from "../support/site-process";
import { fillDisk, mountSmallDisk } from "../support/small-disk";

manageSites();

const ADMIN = { username: "family", password: "full-disk-test-password" };
const canMount = (() => {
  const probe = mountSmallDisk(1);
  return probe !== null;
})();

function cookieOf(answer: Answer) {
  return (answer.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]).join("; ");
}

async function smallJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: "#8a6" } })
    .jpeg()
    .toBuffer();
}

/** Sign, PUT and complete one photo; returns the upload's id. */
async function uploadPhoto(port: number, name: string): Promise<number> {
  const signed = await postJson(port, "/api/uploads/sign", {});
  expect(signed.status, signed.body).toBe(200);
  const target = new URL((JSON.parse(signed.body) as { uploadURL: string }).uploadURL);
  const put = await request(port, "PUT", target.pathname + target.search, {
    body: await smallJpeg(),
    headers: { "Content-Type": "image/jpeg" },
  });
  expect(put.status, put.body).toBe(200);
  const done = await postJson(port, "/api/uploads/complete", {
    uploadURL: target.toString(),
    submittedBy: "Disk Tester (disk@example.com)",
    type: "IMAGE",
    originalName: name,
  });
  expect(done.status, done.body).toBe(201);
  return (JSON.parse(done.body) as { id: number }).id;
}

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});

interface Tally {
  acknowledged: number;
  refused: number;
}

describe("a full disk (production server on a small tmpfs)", () => {
  it.skipIf(!canMount)(
    "acknowledges only what it committed, refuses the rest with 507 and a plain message, keeps answering reads, and loses nothing across a restart",
    async () => {
      const disk = mountSmallDisk(24)!;
      // A free-space floor below the small disk, so uploads go in until the disk itself is full.
      const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, MIN_FREE_DISK_BYTES: "1MB" };
      const site = await startSite(disk, env);
      const { port } = site;

      // Before the disk fills: an administrator's session, memories and uploads waiting for review, a poem.
      // The configured administrator is created just after the server starts listening.
      let login = await postJson(port, "/api/admin/login", ADMIN);
      for (let attempt = 0; login.status === 401 && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        login = await postJson(port, "/api/admin/login", ADMIN);
      }
      expect(login.status, login.body).toBe(200);
      const admin = { Cookie: cookieOf(login) };
      const pendingMemories: number[] = [];
      for (let i = 0; i < 6; i++) {
        const answer = await postJson(port, "/api/guestbook", {
          name: `Before ${i}`,
          email: "before@example.com",
          message: `Written before the disk filled, number ${i}.`,
        });
        expect(answer.status).toBe(201);
        pendingMemories.push((JSON.parse(answer.body) as { id: number }).id);
      }
      const pendingUploads = [await uploadPhoto(port, "one.jpg"), await uploadPhoto(port, "two.jpg")];
      const poem = await postJson(port, "/api/admin/poems", { title: "Before", content: "Lines before the disk filled." }, admin);
      expect(poem.status).toBe(201);
      const objectsDir = path.join(disk, "uploads", "objects");
      const storedFiles = () =>
        existsSync(objectsDir) ? readdirSync(objectsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
      const filesBefore = storedFiles();

      const ballast = fillDisk(disk);

      const memories = new Map<string, Answer>();
      const rsvps = new Map<string, Answer>();
      const poems = new Map<string, Answer>();
      const tally: Tally = { acknowledged: 0, refused: 0 };
      const count = (answer: Answer) => {
        if (answer.status >= 200 && answer.status < 400) tally.acknowledged++;
        else tally.refused++;
      };
      // Under every field's limit (RSVP notes take 1,000 characters), several pages of the database each.
      const bigText = (label: string) => `${label}: ${"we will always remember the summers at the lake. ".repeat(19)}`;

      for (let round = 0; round < 20; round++) {
        const apiMessage = bigText(`api memory ${round}`);
        memories.set(
          apiMessage,
          await postJson(port, "/api/guestbook", { name: `Api ${round}`, email: "api@example.com", message: apiMessage }),
        );
        const formMessage = bigText(`form memory ${round}`);
        memories.set(
          formMessage,
          await request(
            port,
            "POST",
            "/guestbook",
            form({ name: `Form ${round}`, email: "form@example.com", message: formMessage, canDisplay: "on" }),
          ),
        );
        const apiNotes = bigText(`api rsvp ${round}`);
        rsvps.set(
          apiNotes,
          await postJson(port, "/api/rsvp", { name: `Guest ${round}`, email: "guest@example.com", guestCount: 2, notes: apiNotes }),
        );
        const formNotes = bigText(`form rsvp ${round}`);
        rsvps.set(
          formNotes,
          await request(
            port,
            "POST",
            "/rsvp",
            form({ name: `Guest ${round}`, email: "guest@example.com", guestCount: "1", notes: formNotes }),
          ),
        );
        const poemContent = bigText(`poem ${round}`);
        poems.set(poemContent, await postJson(port, "/api/admin/poems", { title: `Poem ${round}`, content: poemContent }, admin));
        for (const answer of [...memories.values(), ...rsvps.values(), ...poems.values()].slice(-5)) count(answer);

        // Reads keep working while writes are refused.
        expect((await request(port, "GET", "/healthz")).status).toBe(200);
        expect((await request(port, "GET", "/api/guestbook")).status).toBe(200);
        expect((await request(port, "GET", "/guestbook")).status).toBe(200);
      }

      // Every answer is a confirmation or a clear refusal: never a 500.
      const all = [...memories.values(), ...rsvps.values(), ...poems.values()];
      for (const answer of all) expect([200, 201, 302, 507], answer.body.slice(0, 300)).toContain(answer.status);
      expect(tally.refused, "the disk was full, yet nothing was refused: the test did not fill it").toBeGreaterThan(0);

      // The refusals say why, in the API's shape or on the form with what was typed.
      const apiRefusal = [...memories.entries()].find(([, a]) => a.status === 507 && a.headers["content-type"]?.includes("json"));
      expect(apiRefusal, "a refused API submission").toBeDefined();
      expect(JSON.parse(apiRefusal![1].body)).toEqual({ errors: { body: [STORAGE_FULL] } });
      const formRefusal = [...memories.entries()].find(([, a]) => a.status === 507 && a.headers["content-type"]?.includes("html"));
      expect(formRefusal, "a refused form submission").toBeDefined();
      expect(formRefusal![1].body).toContain(STORAGE_FULL.replace(/'/g, "&#x27;"));
      expect(formRefusal![1].body, "the refused form keeps the message typed").toContain(formRefusal![0].slice(0, 40));

      // Moderation on a full disk: a refused change reports failure and keeps the files.
      const approve = await request(port, "PATCH", `/api/admin/memories/${pendingMemories[0]}`, {
        body: JSON.stringify({ status: "APPROVED" }),
        headers: { ...admin, "Content-Type": "application/json" },
      });
      const reject = await request(port, "PATCH", `/api/admin/uploads/${pendingUploads[0]}`, {
        body: JSON.stringify({ status: "REJECTED" }),
        headers: { ...admin, "Content-Type": "application/json" },
      });
      const formReject = await request(port, "POST", "/admin/uploads", {
        ...form({ intent: "reject", id: String(pendingUploads[1]), confirmed: "yes" }),
        headers: { ...form({}).headers, ...admin },
      });
      const secondLogin = await postJson(port, "/api/admin/login", ADMIN);
      const signing = await postJson(port, "/api/uploads/sign", {});
      for (const answer of [approve, reject, secondLogin, signing]) expect([200, 201, 507], answer.body).toContain(answer.status);
      expect([302, 303]).toContain(formReject.status);
      if (reject.status === 507) expect(JSON.parse(reject.body)).toEqual({ errors: { body: [STORAGE_FULL] } });

      // Free the disk, restart, and compare what is stored with what was acknowledged.
      rmSync(ballast);
      site.child.kill("SIGKILL");
      await site.exited;
      const again = await startSite(disk, env);
      const sqlite = new Database(path.join(disk, "memorial.db"), { readonly: true });
      try {
        expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
        const stored = (table: string, column: string) =>
          new Set((sqlite.prepare(`SELECT ${column} AS v FROM ${table}`).all() as { v: string }[]).map((r) => r.v));
        const check = (answers: Map<string, Answer>, kept: Set<string>, what: string) => {
          for (const [text, answer] of answers) {
            const ok = answer.status >= 200 && answer.status < 400;
            expect(kept.has(text), `${what} answered ${answer.status} but ${ok ? "is missing" : "was stored"}: ${text.slice(0, 40)}`).toBe(
              ok,
            );
          }
        };
        check(memories, stored("memories", "message"), "memory");
        check(rsvps, stored("rsvps", "notes"), "RSVP");
        check(poems, stored("poems", "content"), "poem");

        const status = (table: string, id: number) =>
          (sqlite.prepare(`SELECT status FROM ${table} WHERE id = ?`).get(id) as { status: string }).status;
        expect(status("memories", pendingMemories[0]!)).toBe(approve.status === 200 ? "APPROVED" : "PENDING");
        expect(status("uploads", pendingUploads[0]!)).toBe(reject.status === 200 ? "REJECTED" : "PENDING");
        // Files go only with a committed rejection.
        const rejected = [reject.status === 200, status("uploads", pendingUploads[1]!) === "REJECTED"].filter(Boolean).length;
        if (rejected === 0) expect(storedFiles()).toBe(filesBefore);
        else expect(storedFiles()).toBeLessThan(filesBefore);
      } finally {
        sqlite.close();
      }
      expect(
        (
          await postJson(again.port, "/api/guestbook", {
            name: "After",
            email: "after@example.com",
            message: "Signed once there was room again.",
          })
        ).status,
      ).toBe(201);
      console.info(
        `full disk: ${tally.acknowledged} writes acknowledged and stored, ${tally.refused} refused with 507; approve ${approve.status}, reject ${reject.status}, login ${secondLogin.status}, signing ${signing.status}`,
      );
      again.child.kill("SIGTERM");
      await again.exited;
    },
    120_000,
  );
});
