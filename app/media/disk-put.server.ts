import type { Readable } from "node:stream";
import { config } from "~/config.server";
import { isAwaitingDirectUpload, multipartRoomLeft, UploadRefused } from "~/models/upload.server";
import { DiskStorage, ObjectExistsError, UnknownUploadError } from "./disk-storage.server";
import { MAX_UPLOAD_BYTES } from "./limits";
import { getMediaStorage } from "./media-storage.server";
import { readGrant } from "./signature.server";
import { UploadTooLargeError } from "./storage.server";

export interface DiskPutAnswer {
  status: number;
  headers?: Record<string, string>;
  /** A JSON body in the API's error shape, or nothing. */
  errors?: Record<string, string[]>;
}

const TOO_LARGE: DiskPutAnswer = { status: 413, errors: { file: ["The file is larger than 1 GB. Please choose a smaller file."] } };
const TAKEN: DiskPutAnswer = { status: 409, errors: { uploadURL: ["A file has already been uploaded to this address."] } };

/**
 * The local-disk driver's signed upload address: PUT the file (or, with
 * uploadId and partNumber, one part of it). The body is streamed to a
 * temporary file and never held in memory. Used by the Remix route and, for
 * speed, straight from the Node server (no web-stream conversions).
 */
export async function receiveDiskPut(input: {
  key: string;
  searchParams: URLSearchParams;
  contentLength: string | null;
  contentType: string | null;
  body: Readable;
}): Promise<DiskPutAnswer> {
  const storage = getMediaStorage();
  if (!(storage instanceof DiskStorage)) return { status: 404, errors: { uploadURL: ["Uploads go straight to the bucket"] } };
  const check = readGrant(input.key, input.searchParams, config.sessionSecrets);
  if (!check.ok) {
    return { status: 403, errors: { signature: [check.reason === "expired" ? "Request has expired" : "This upload address is not valid."] } };
  }
  const { key, uploadId, partNumber } = check.grant;
  try {
    const isPart = uploadId !== undefined && partNumber !== undefined;
    const maxBytes = isPart ? await multipartRoomLeft(key, uploadId, partNumber) : MAX_UPLOAD_BYTES;
    if (Number(input.contentLength ?? "0") > maxBytes) return TOO_LARGE;
    if (isPart) {
      const etag = await storage.receivePart(key, uploadId, partNumber, input.body, maxBytes);
      return { status: 200, headers: { ETag: etag } };
    }
    if (!isAwaitingDirectUpload(key) || (await storage.exists(key))) return TAKEN;
    await storage.write(key, input.body, { contentType: input.contentType ?? "", maxBytes });
    return { status: 200, headers: { ETag: `"${key.split("/").pop()}"` } };
  } catch (error) {
    if (error instanceof UploadTooLargeError) return TOO_LARGE;
    if (error instanceof ObjectExistsError) return TAKEN;
    if (error instanceof UnknownUploadError) return { status: 404, errors: { uploadId: ["There is no such upload in progress."] } };
    if (error instanceof UploadRefused) return { status: error.status, errors: { [error.field]: [error.message] } };
    throw error;
  }
}

type NodeRequest = Readable & { url?: string; method?: string; headers: Record<string, string | string[] | undefined> };
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
