import type { Readable } from "node:stream";
import { DISK_PUT_PATH } from "~/media/disk-storage.server";
import { receiveSignedPut } from "~/uploads/upload-parts.server";
import { methodNotAllowed } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/** A request to a signed upload address of the local-disk driver, as the Node server reads it. */
export interface DiskPutRequest {
  method: string;
  url: URL;
  contentLength: string | null;
  contentType: string | null;
  body: Readable;
  clientIp?: string;
}

/**
 * PUT /api/uploads/put/{key}?…: the file (or, with uploadId and partNumber,
 * one part of it) for the local-disk driver. The upload model checks the
 * signature and stores the body; refusals answer in the API's error shape.
 */
export async function answerDiskPut(put: DiskPutRequest): Promise<Response> {
  if (put.method !== "PUT") return methodNotAllowed("PUT");
  return answerRefusals(async () => {
    const { etag } = await receiveSignedPut({
      key: decodeURIComponent(put.url.pathname.replace(DISK_PUT_PATH, "")),
      searchParams: put.url.searchParams,
      contentLength: put.contentLength,
      contentType: put.contentType,
      body: put.body,
      clientIp: put.clientIp,
    });
    return new Response(null, { status: 200, headers: { ETag: etag } });
  });
}

type NodeRequest = Readable & {
  url?: string;
  method?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
};
type NodeResponse = {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body?: string): unknown;
  headersSent: boolean;
};

/**
 * The Node server mounts this on /api/uploads/put/* ahead of Remix (the only
 * way there), so a 1 GB upload streams from the socket to the file without
 * web-stream conversions.
 */
export async function handleDiskPut(req: NodeRequest, res: NodeResponse, next: (error?: unknown) => void) {
  try {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    };
    const answer = await answerDiskPut({
      method: req.method ?? "GET",
      url: new URL(req.url ?? "/", "http://localhost"),
      contentLength: header("content-length"),
      contentType: header("content-type"),
      body: req,
      // Who sends it, as the server tells Remix (server/security.mjs, clientAddress):
      // Fly's proxy names the visitor; elsewhere the socket does.
      clientIp: (process.env.FLY_APP_NAME && header("fly-client-ip")) || req.socket?.remoteAddress,
    });
    if (answer.status !== 200) req.resume(); // let the refused body drain, so the browser reads our answer
    res.statusCode = answer.status;
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    const body = await answer.text();
    res.end(body || undefined);
  } catch (error) {
    if (res.headersSent) return;
    next(error);
  }
}
