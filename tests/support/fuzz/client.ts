// The fuzz's HTTP client: Node's http module, so every byte sent is the
// fuzz's own (no header added or refused behind its back), redirects are never
// followed (a redirect and its toast are what some answers are judged by), and
// connections are kept alive and reused as a browser's are. Each client keeps
// the cookies the site sets, as a browser would.
import http from "node:http";
import zlib from "node:zlib";

/** The cookies a client holds (all the site's cookies have Path=/): name → value. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Takes what a Set-Cookie header says: a new value, or the cookie's end (Max-Age ≤ 0, or Expires in the past). */
  take(setCookies: string[]) {
    for (const header of setCookies) {
      const [pair = "", ...attributes] = header.split(";");
      const equals = pair.indexOf("=");
      if (equals < 1) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = "", ...rest] = attribute.split("=");
        const setting = rest.join("=").trim();
        if (key.trim().toLowerCase() === "max-age") return Number(setting) <= 0;
        if (key.trim().toLowerCase() === "expires") return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Cookie header to send, or undefined when there are none. */
  header(): string | undefined {
    if (!this.cookies.size) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  setCookies: string[];
  /** The body, decompressed. */
  body: Buffer;
}

export interface SendOptions {
  method: string;
  /** A path (and query) on the site, or a whole address on it; parsed as a browser parses it (dot segments resolved). */
  url: string;
  headers?: Record<string, string>;
  body?: Buffer;
  timeoutMs?: number;
  /** On a connection of its own, closed afterwards; the cookies the answer sets are not kept. */
  freshConnection?: boolean;
}

/**
 * One client of the site at `origin` (http://localhost:<port>): its own
 * keep-alive connections and its own cookies. It connects to 127.0.0.1 and
 * says Host: localhost:<port>, so the site sees its own origin.
 */
export class SiteClient {
  private readonly jar = new CookieJar();
  private readonly agent: http.Agent;
  private readonly port: number;

  constructor(
    readonly origin: string,
    { maxSockets = Infinity } = {},
  ) {
    this.port = Number(new URL(origin).port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  send({ method, url, headers = {}, body, timeoutMs = 30_000, freshConnection = false }: SendOptions): Promise<Reply> {
    const target = new URL(url, this.origin);
    // Defaults as HTTP client libraries send them; the case's own headers replace them, whatever their case.
    const sent = new Map<string, [string, string]>();
    const set = (name: string, value: string) => sent.set(name.toLowerCase(), [name, value]);
    set("Host", target.host);
    set("User-Agent", "memorial-fuzz");
    set("Accept", "*/*");
    set("Accept-Encoding", "gzip,deflate,br");
    for (const [name, value] of Object.entries(headers)) set(name, value);
    const cookies = this.jar.header();
    if (!sent.has("cookie") && cookies) set("Cookie", cookies);
    if (body !== undefined) {
      if (!sent.has("content-type")) set("Content-Type", "application/octet-stream");
      set("Content-Length", String(body.length));
    }
    return new Promise<Reply>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: this.port,
        method,
        path: target.pathname + target.search,
        headers: Object.fromEntries(sent.values()),
        agent: freshConnection ? false : this.agent,
        setHost: false,
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer in ${timeoutMs / 1000} s`)), timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let ended = false;
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        res.on("close", () => {
          if (!ended) fail(new Error("the connection closed before the answer ended"));
        });
        res.on("end", () => {
          ended = true;
          clearTimeout(timer);
          try {
            const setCookies = res.headers["set-cookie"] ?? [];
            if (!freshConnection) this.jar.take(setCookies);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              setCookies,
              body: decompress(Buffer.concat(chunks), res.headers["content-encoding"]),
            });
          } catch (error) {
            reject(error as Error);
          }
        });
      });
      // An error once the answer has come (the server refused the body and closed while it was still being sent) changes nothing.
      req.on("error", fail);
      req.end(body);
    });
  }

  /** Closes its idle connections. */
  close() {
    this.agent.destroy();
  }
}

function decompress(data: Buffer, encoding: string | undefined): Buffer {
  if (!data.length) return data;
  switch (encoding?.toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case "br":
      return zlib.brotliDecompressSync(data, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    case "deflate":
      return zlib.inflateSync(data);
    default:
      return data;
  }
}
