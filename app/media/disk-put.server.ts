import type { Readable } from "node:stream";
import { config } from "~/config.server";
import { receiveSignedPut } from "~/models/upload.server";
import { asRefusal } from "~/utils/refusal.server";
import { readGrant } from "./signature.server";

export interface DiskPutAnswer {
  status: number;
  headers?: Record<string, string>;
  /** A JSON body in the API's error shape, or nothing. */
  errors?: Record<string, string[]>;
}

/**
 * The local-disk driver's signed upload address: PUT the file (or, with
 * uploadId and partNumber, one part of it). The signature is checked here;
 * the upload rules (sizes, budgets, where the bytes go) are the model's. The
 * body is streamed to a temporary file and never held in memory. Used by the
 * Remix route and, for speed, straight from the Node server (no web-stream
 * conversions).
 */
export async function receiveDiskPut(input: {
  key: string;
  searchParams: URLSearchParams;
  contentLength: string | null;
  contentType: string | null;
  body: Readable;
  clientIp?: string;
}): Promise<DiskPutAnswer> {
  const check = readGrant(input.key, input.searchParams, config.sessionSecrets);
  if (!check.ok) {
    return { status: 403, errors: { signature: [check.reason === "expired" ? "Request has expired" : "This upload address is not valid."] } };
  }
  const { key, uploadId, partNumber } = check.grant;
  try {
    const { etag } = await receiveSignedPut({ ...input, key, uploadId, partNumber });
    return { status: 200, headers: { ETag: etag } };
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return { status: refusal.status, headers: refusal.headers, errors: { [refusal.field]: [refusal.message] } };
  }
}

type NodeRequest = Readable & {
  url?: string;
  method?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
};
type NodeResponse = { statusCode: number; setHeader(name: string, value: string): unknown; end(body?: string): unknown; headersSent: boolean };

/**
 * The same, for the Node server: mounted on PUT /api/uploads/put/* ahead of
 * Remix so a 1 GB upload streams from the socket to the file directly.
 */
export async function handleDiskPut(req: NodeRequest, res: NodeResponse, next: (error?: unknown) => void) {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    };
    const answer = await receiveDiskPut({
      key: decodeURIComponent(url.pathname.replace(/^\/api\/uploads\/put\//, "")),
      searchParams: url.searchParams,
      contentLength: header("content-length"),
      contentType: header("content-type"),
      body: req,
      // Who sends it, as the server tells Remix (server/security.mjs, clientAddress):
      // Fly's proxy names the visitor; elsewhere the socket does.
      clientIp: (process.env.FLY_APP_NAME && header("fly-client-ip")) || req.socket?.remoteAddress,
    });
    if (answer.status !== 200) req.resume(); // let the refused body drain, so the browser reads our answer
    res.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    if (answer.errors) {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.end(JSON.stringify({ errors: answer.errors }));
    } else {
      res.end();
    }
  } catch (error) {
    if (res.headersSent) return;
    next(error);
  }
}
