// Requests to the upload routes, made in process as a browser would send them.
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { expect } from "vitest";
import { answerDiskPut } from "~/server/disk-put.server";
import { action as completeAction } from "~/routes/api.uploads.complete";
import { action as signAction } from "~/routes/api.uploads.sign";
import { action as createMultipartAction } from "~/routes/api.uploads.s3.multipart";
import { loader as signPartLoader } from "~/routes/api.uploads.s3.multipart.$uploadId.$partNumber";

export const ORIGIN = "http://memorial.test";

export const routeArgs = <T extends object>(request: Request, params: Record<string, string> = {}, clientIp?: string) =>
  ({ request, params, context: clientIp ? { clientIp } : {} }) as unknown as T;

/** The Response a route returned or threw. */
export async function settle(promise: Promise<unknown> | unknown): Promise<Response> {
  const result = await Promise.resolve(promise).catch((thrown: unknown) => thrown);
  if (!(result instanceof Response)) throw new Error(`expected a Response, got ${String(result)}`);
  return result;
}

const jsonRequest = (url: string, init: RequestInit = {}) =>
  new Request(`${ORIGIN}${url}`, { ...init, headers: { "Content-Type": "application/json", ...init.headers } });

export function signFrom(clientIp?: string, body?: Record<string, unknown>) {
  const text = JSON.stringify(body);
  const request = body
    ? jsonRequest("/api/uploads/sign", { method: "POST", body: text, headers: { "Content-Length": String(Buffer.byteLength(text)) } })
    : new Request(`${ORIGIN}/api/uploads/sign`, { method: "POST" });
  return settle(signAction(routeArgs(request, {}, clientIp)));
}

export async function sign(clientIp?: string): Promise<string> {
  const response = await signFrom(clientIp);
  expect(response.status).toBe(200);
  return ((await response.json()) as { uploadURL: string }).uploadURL;
}

/** `size` bytes as a stream of 1 MiB chunks, so large bodies cost no memory here. */
export function bytesStream(size: number, fill = 7): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(Math.min(size, 1024 * 1024)).fill(fill);
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const next = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= next.length;
      controller.enqueue(next);
    },
  });
}

/**
 * A request to a signed address of the disk driver, answered as the Node
 * server answers it (server/index.mjs hands it to handleDiskPut, which reads
 * the same fields from the socket).
 */
export function diskPut(request: Request, clientIp?: string): Promise<Response> {
  return answerDiskPut({
    method: request.method,
    url: new URL(request.url),
    contentLength: request.headers.get("Content-Length"),
    contentType: request.headers.get("Content-Type"),
    body: request.body ? Readable.fromWeb(request.body as NodeWebStream<Uint8Array>) : Readable.from([]),
    clientIp,
  });
}

/** A PUT to a signed address, with the Content-Length a browser sends. */
export function put(
  uploadURL: string,
  body: Uint8Array | string | ReadableStream<Uint8Array>,
  options: { clientIp?: string; length?: number | null; headers?: Record<string, string> } = {},
) {
  const url = new URL(uploadURL);
  const size = typeof body === "string" ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : undefined;
  const length = options.length === undefined ? size : options.length;
  const headers: Record<string, string> = { ...options.headers };
  if (length !== null && length !== undefined) headers["Content-Length"] = String(length);
  const request = new Request(url, { method: "PUT", body, headers, duplex: "half" } as RequestInit);
  return diskPut(request, options.clientIp);
}

export function complete(body: Record<string, unknown>) {
  return settle(completeAction(routeArgs(jsonRequest("/api/uploads/complete", { method: "POST", body: JSON.stringify(body) }))));
}

export async function startMultipart(clientIp?: string, body: Record<string, unknown> = { filename: "movie.mp4", type: "video/mp4" }) {
  const created = await settle(
    createMultipartAction(
      routeArgs(jsonRequest("/api/uploads/s3/multipart", { method: "POST", body: JSON.stringify(body) }), {}, clientIp),
    ),
  );
  return created;
}

export async function signPart(uploadId: string, key: string, partNumber: number): Promise<string> {
  const signed = await settle(
    signPartLoader(
      routeArgs(jsonRequest(`/api/uploads/s3/multipart/${uploadId}/${partNumber}?key=${encodeURIComponent(key)}`), {
        uploadId,
        partNumber: String(partNumber),
      }),
    ),
  );
  expect(signed.status).toBe(200);
  return ((await signed.json()) as { url: string }).url;
}
