// The signal long loaders listen to for a client that has gone
// (server/client-gone.mjs), against a real HTTP server and a garbage
// collection between the request and the client leaving.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { clientGoneSignal } from "../../server/client-gone.mjs";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose handler keeps only the signal, as a loader keeps it while a book is made; resolves with the signal once a request has come. */
function serve(answer: (res: http.ServerResponse) => void) {
  const signals: AbortSignal[] = [];
  let arrived: (signal: AbortSignal) => void;
  const first = new Promise<AbortSignal>((resolve) => (arrived = resolve));
  server = http.createServer((_req, res) => {
    const signal = clientGoneSignal(res);
    signals.push(signal);
    arrived(signal);
    answer(res);
  });
  return new Promise<{ port: number; first: Promise<AbortSignal> }>((resolve) =>
    server!.listen(0, "127.0.0.1", () => resolve({ port: (server!.address() as AddressInfo).port, first })),
  );
}

describe("the client-gone signal", () => {
  it("aborts when the client leaves before the answer, after a garbage collection", async () => {
    const { port, first } = await serve(() => undefined);
    const req = http.get({ host: "127.0.0.1", port, path: "/book.pdf", agent: false });
    req.on("error", () => undefined);
    const signal = await first;
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(signal.aborted).toBe(false);
    const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    req.destroy();
    await aborted;
    expect(signal.aborted).toBe(true);
  });

  it("does not abort once the whole answer has been sent", async () => {
    const { port, first } = await serve((res) => res.end("the book"));
    const body = await new Promise<string>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port, path: "/book.pdf", agent: false }, (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve(text));
        })
        .on("error", reject),
    );
    expect(body).toBe("the book");
    const signal = await first;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(signal.aborted).toBe(false);
  });

  it("is aborted from the start when the client has already gone", async () => {
    const closed = new http.ServerResponse(new http.IncomingMessage(null as never));
    closed.destroy();
    expect(clientGoneSignal(closed).aborted).toBe(true);
  });
});
