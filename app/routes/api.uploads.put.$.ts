import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { receiveDiskPut } from "~/media/disk-put.server";
import { methodNotAllowed } from "~/utils/http.server";

export const loader = () => methodNotAllowed("PUT");

/**
 * The local-disk driver's signed upload address (see media/disk-put.server.ts;
 * the Node server answers these PUTs itself before they reach Remix).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  const answer = await receiveDiskPut({
    key: params["*"] ?? "",
    searchParams: new URL(request.url).searchParams,
    contentLength: request.headers.get("Content-Length"),
    contentType: request.headers.get("Content-Type"),
    body: request.body ? Readable.fromWeb(request.body as NodeWebStream<Uint8Array>) : Readable.from([]),
    clientIp: context.clientIp,
  });
  if (answer.errors) return json({ errors: answer.errors }, { status: answer.status, headers: answer.headers });
  return new Response(null, { status: answer.status, headers: answer.headers });
}
