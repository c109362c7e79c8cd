// A page's GET goes to Remix without Express (server/index.mjs), so the
// request Remix gets and the answer written back must be what Remix's own
// Express adapter makes, behind Express's `trust proxy` as the site sets it:
// both are asked about the same requests, on one Express server.
import { createRequire } from "node:module";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remixHeaders, remixUrl, sendRemixResponse } from "../../server/remix-request.mjs";

type Adapter = {
  createRemixRequest: (req: express.Request, res: express.Response) => Request;
  createRemixHeaders: (headers: http.IncomingHttpHeaders) => Headers;
  sendRemixResponse: (res: express.Response, response: Response) => Promise<void>;
};
const adapter = createRequire(import.meta.url)("@remix-run/express/dist/server.js") as Adapter;

/** The answers both ways give, by name. */
const ANSWERS: Record<string, () => Response> = {
  page: () => new Response("<p>hello</p>", { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } }),
  calendar: () => new Response("BEGIN:VCALENDAR", { headers: { "Content-Type": "text/calendar" } }),
  json: () => new Response('{"a":1}', { status: 201, statusText: "Made", headers: { "Content-Type": "application/json" } }),
  photo: () => new Response(new Uint8Array([1, 2, 3]), { headers: { "Content-Type": "image/png" } }),
  cookies: () => {
    const headers = new Headers({ "Content-Type": "text/plain", Location: "/guestbook" });
    headers.append("Set-Cookie", "a=1; Path=/; HttpOnly");
    headers.append("Set-Cookie", "b=2; Path=/");
    return new Response(null, { status: 303, headers });
  },
  empty: () => new Response(null, { status: 204, headers: { "X-Remix-Redirect": "/" } }),
};

let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);
  app.get("/answer/:name/:how", (req, res) => {
    const response = ANSWERS[req.params.name!]!();
    void (req.params.how === "adapter" ? adapter.sendRemixResponse(res, response) : sendRemixResponse(res, response));
  });
  app.all("*", (req, res) => {
    const theirs = adapter.createRemixRequest(req, res);
    const both = {
      adapter: { url: theirs.url, method: theirs.method, headers: [...theirs.headers] },
      ours: { url: remixUrl(req).href, method: req.method, headers: [...remixHeaders(req.headers)] },
    };
    // In a header, so a HEAD request gets it too.
    res.setHeader("X-Both", encodeURIComponent(JSON.stringify(both)));
    res.end();
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Sends `head` (request line and headers) as it is, and returns the raw answer. */
function raw(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(`${head}\r\nConnection: close\r\n\r\n`));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

const bothOf = (answer: string) =>
  JSON.parse(decodeURIComponent(/^X-Both: (.*)\r$/m.exec(answer)?.[1] ?? "")) as { adapter: unknown; ours: unknown };

describe("the request Remix gets", () => {
  const cases = [
    "GET /guestbook HTTP/1.1\r\nHost: memorial.example",
    "GET /guestbook?offset=10&x=%20y HTTP/1.1\r\nHost: memorial.example:8443",
    "HEAD /gallery/3 HTTP/1.1\r\nHost: 127.0.0.1:3000",
    "GET / HTTP/1.1\r\nHost: [::1]:8080",
    "GET / HTTP/1.1\r\nHost: [::1]",
    "GET /poems HTTP/1.1\r\nHost: internal:3000\r\nX-Forwarded-Host: memorial.example\r\nX-Forwarded-Proto: https",
    "GET /poems HTTP/1.1\r\nHost: internal:3000\r\nX-Forwarded-Host: memorial.example:444, proxy.example\r\nX-Forwarded-Proto: https, http",
    "GET /poems HTTP/1.1\r\nHost: internal\r\nX-Forwarded-Host: \r\nX-Forwarded-Proto:  HTTPS ",
    "GET /poems HTTP/1.1\r\nHost: internal:notaport\r\nX-Forwarded-Host: [2001:db8::1]:9000",
    "GET //double//slashes/../guestbook HTTP/1.1\r\nHost: memorial.example",
    "GET /guestbook HTTP/1.0",
    "GET /guestbook HTTP/1.1\r\nHost: memorial.example\r\nCookie: a=1\r\nCookie: b=2\r\nAccept: text/html\r\nAccept: */*\r\nX-Empty: ",
  ];

  it.each(cases)("is the adapter's for %j", async (head) => {
    const { adapter: theirs, ours } = bothOf(await raw(head));
    expect(ours).toEqual(theirs);
  });

  it("has the adapter's headers for a request with repeated and empty headers", () => {
    const headers = { host: "a", "set-cookie": ["x=1", "y=2"], accept: "text/html", empty: "", missing: undefined };
    expect([...remixHeaders(headers)]).toEqual([...adapter.createRemixHeaders(headers)]);
  });
});

describe("Remix's answer as written back", () => {
  it.each(Object.keys(ANSWERS))("is the adapter's for %s", async (name) => {
    const strip = (answer: string) => answer.replace(/^Date: .*\r\n/m, "");
    const [theirs, ours] = await Promise.all([
      raw(`GET /answer/${name}/adapter HTTP/1.1\r\nHost: memorial.example`),
      raw(`GET /answer/${name}/ours HTTP/1.1\r\nHost: memorial.example`),
    ]);
    expect(strip(ours)).toBe(strip(theirs));
  });
});
