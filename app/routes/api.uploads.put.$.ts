import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { type ActionFunctionArgs } from "@remix-run/node";
import { config } from "~/config.server";
import { DiskStorage, ObjectExistsError, UnknownUploadError } from "~/media/disk-storage.server";
import { MAX_UPLOAD_BYTES } from "~/media/limits";
import { getMediaStorage } from "~/media/media-storage.server";
import { answerUploadRefusals, methodNotAllowed } from "~/media/responses.server";
import { readGrant } from "~/media/signature.server";
import { UploadTooLargeError } from "~/media/storage.server";
import { isAwaitingDirectUpload, multipartRoomLeft } from "~/models/upload.server";
import { errorResponse } from "~/utils/http.server";

export const loader = () => methodNotAllowed("PUT");

/**
 * The local-disk driver's signed upload address: PUT the file (or, with
 * uploadId and partNumber, one part of it). The body is streamed to a
 * temporary file and never held in memory.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const storage = getMediaStorage();
  if (!(storage instanceof DiskStorage)) return errorResponse(404, { uploadURL: ["Uploads go straight to the bucket"] });
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  const key = params["*"] ?? "";
  const check = readGrant(key, new URL(request.url).searchParams, config.sessionSecrets);
  if (!check.ok) {
    return errorResponse(403, { signature: [check.reason === "expired" ? "Request has expired" : "This upload address is not valid."] });
  }
  const { grant } = check;
  return answerUploadRefusals(async () => {
    const maxBytes =
      grant.uploadId !== undefined && grant.partNumber !== undefined
        ? await multipartRoomLeft(key, grant.uploadId, grant.partNumber)
        : MAX_UPLOAD_BYTES;
    const tooLarge = () => errorResponse(413, { file: ["The file is larger than 1 GB. Please choose a smaller file."] });
    if (Number(request.headers.get("Content-Length") ?? "0") > maxBytes) return tooLarge();
    const body = request.body ? Readable.fromWeb(request.body as NodeWebStream<Uint8Array>) : Readable.from([]);
    try {
      if (grant.uploadId !== undefined && grant.partNumber !== undefined) {
        const etag = await storage.receivePart(key, grant.uploadId, grant.partNumber, body, maxBytes);
        return new Response(null, { status: 200, headers: { ETag: etag } });
      }
      if (!isAwaitingDirectUpload(key) || (await storage.exists(key))) {
        return errorResponse(409, { uploadURL: ["A file has already been uploaded to this address."] });
      }
      await storage.write(key, body, { contentType: request.headers.get("Content-Type") ?? "", maxBytes });
      return new Response(null, { status: 200, headers: { ETag: `"${key.split("/").pop()}"` } });
    } catch (error) {
      if (error instanceof UploadTooLargeError) return tooLarge();
      if (error instanceof ObjectExistsError) {
        return errorResponse(409, { uploadURL: ["A file has already been uploaded to this address."] });
      }
      if (error instanceof UnknownUploadError) return errorResponse(404, { uploadId: ["There is no such upload in progress."] });
      throw error;
    }
  });
}
