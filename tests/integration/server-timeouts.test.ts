// How long the production server waits for a visitor, against the real
// process (`npm run build` first). Its timeouts are shortened through the
// environment (1 s instead of 120 s and 60 s) so this runs in seconds; the
// assertions are about what happens, never about how long it took.
import { readdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { serverTimeoutOptions, timeoutsFromEnv } from "../../server/timeouts.mjs";
import { get, requireBuild, runServer, scratchDir, startSite, type Site } from "../support/site-process";

const IDLE_MS = 1000;
const HEADERS_MS = 1000;
let site: Site;

beforeAll(async () => {
  requireBuild();
  site = await startSite(scratchDir(), { REQUEST_IDLE_TIMEOUT_MS: String(IDLE_MS), HEADERS_TIMEOUT_MS: String(HEADERS_MS) });
}, 60_000);

afterAll(async () => {
  await site?.stop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Warning {
  level: string;
  msg: string;
  method?: string;
  path?: string;
  status?: number;
}

/** The server's warn lines so far. */
function warnings(): Warning[] {
  return site
    .output()
    .split("\n")
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as Warning;
        return entry.level === "warn" ? [entry] : [];
      } catch {
        return [];
      }
    });
}

/** A signed upload address on this server, as its path. */
function signUpload(): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: site.port, method: "POST", path: "/api/uploads/sign", agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        const url = new URL((JSON.parse(text) as { uploadURL: string }).uploadURL);
        resolve(`${url.pathname}${url.search}`);
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** A raw connection: what it received, and a promise for its end. */
function connect() {
  const socket = net.connect(site.port, "127.0.0.1");
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (received += chunk));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, closed, connected, received: () => received };
}

const tmpFiles = () => {
  try {
    return readdirSync(path.join(site.dir, "uploads", "tmp"));
  } catch {
    return [];
  }
};

describe("slow connections (production server)", () => {
  it("a body that trickles in for several idle timeouts is received whole while bytes keep arriving", async () => {
    const target = await signUpload();
    const chunks = 24;
    const chunk = Buffer.alloc(2048, 0xab);
    const conn = connect();
    await conn.connected;
    conn.socket.write(
      `PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\nContent-Type: image/jpeg\r\nContent-Length: ${chunks * chunk.length}\r\nConnection: close\r\n\r\n`,
    );
    // A quarter of the idle timeout between chunks: in all six idle timeouts
    // (and six headers deadlines) long, which Node's old total cap would
    // have ended at the same ratio.
    for (let i = 0; i < chunks; i++) {
      await pause(IDLE_MS / 4);
      conn.socket.write(chunk);
    }
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(warnings().filter((w) => w.path?.startsWith("/api/uploads/put/"))).toEqual([]);
  }, 30_000);

  it("a connection that goes silent in the middle of its body is closed after the idle timeout, logged, and leaves no file", async () => {
    const target = await signUpload();
    const conn = connect();
    await conn.connected;
    conn.socket.write(
      `PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\nContent-Type: image/jpeg\r\nContent-Length: ${1024 * 1024}\r\n\r\n`,
    );
    conn.socket.write(Buffer.alloc(64 * 1024, 0xcd));
    await conn.closed;
    expect(conn.received()).toBe("");
    await expect
      .poll(() => warnings().find((w) => w.method === "PUT"), { timeout: 5_000 })
      .toMatchObject({
        level: "warn",
        msg: `request timed out: nothing received for ${IDLE_MS / 1000} s`,
        method: "PUT",
        path: target.split("?")[0],
      });
    // The query string (the upload's signature) is not logged.
    expect(site.output()).not.toContain(target.split("?")[1]);
    await expect.poll(tmpFiles, { timeout: 5_000 }).toEqual([]);
  }, 30_000);

  it("headers sent a line at a time are cut at the headers deadline with 408, and logged", async () => {
    const before = warnings().length;
    const conn = connect();
    await conn.connected;
    conn.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n`);
    // Always something new within the idle timeout, never the end of the headers.
    const drip = setInterval(() => conn.socket.write("X-Still-Here: yes\r\n"), IDLE_MS / 5);
    await conn.closed;
    clearInterval(drip);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
    await expect
      .poll(() => warnings().slice(before), { timeout: 5_000 })
      .toEqual([
        expect.objectContaining({
          level: "warn",
          msg: `request timed out: headers not complete within ${HEADERS_MS / 1000} s`,
          status: 408,
        }),
      ]);
  }, 30_000);

  it("a kept-alive connection with nothing more to ask is closed quietly", async () => {
    const before = warnings().length;
    const conn = connect();
    await conn.connected;
    conn.socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n\r\n`);
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(warnings().slice(before)).toEqual([]);
  }, 30_000);

  it("a malformed request is still answered 400", async () => {
    const conn = connect();
    await conn.connected;
    conn.socket.write("THIS IS NOT HTTP\r\n\r\n");
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 400 /);
  }, 30_000);

  it("an address that cannot be decoded is a 400 and one warning line, not an error with a stack", async () => {
    const answer = await get(site.port, "/media/11/%E0%A4%A");
    expect(answer).toBe(400);
    await vi.waitFor(() => expect(warnings().some((w) => w.status === 400 && w.path === "/media/11/%E0%A4%A")).toBe(true));
    expect(site.output()).not.toMatch(/URIError[^\n]*\n\s+at /);
  }, 30_000);

  it("by default waits 120 s for a quiet client and 60 s for headers, with no cap on a whole request", () => {
    expect(timeoutsFromEnv({})).toEqual({ idleMs: 120_000, headersMs: 60_000 });
    expect(timeoutsFromEnv({ REQUEST_IDLE_TIMEOUT_MS: " 90000 ", HEADERS_TIMEOUT_MS: "" })).toEqual({ idleMs: 90_000, headersMs: 60_000 });
    expect(serverTimeoutOptions({ idleMs: 120_000, headersMs: 60_000 })).toMatchObject({ requestTimeout: 0, headersTimeout: 60_000 });
    for (const wrong of ["-1", "1.5", "50", "1e6", "soon"])
      expect(() => timeoutsFromEnv({ HEADERS_TIMEOUT_MS: wrong }), wrong).toThrow("HEADERS_TIMEOUT_MS");
  });

  it("a timeout that is not a number stops the server with a message naming the variable", async () => {
    for (const name of ["REQUEST_IDLE_TIMEOUT_MS", "HEADERS_TIMEOUT_MS"]) {
      const { code, output } = await runServer({ [name]: "two minutes", PORT: "1" });
      expect(code).toBe(1);
      expect(output).toContain(`${name}: must be a whole number of milliseconds`);
    }
  }, 60_000);
});
