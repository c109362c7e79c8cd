import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { familyDownloadAction, requireFamily } from "~/admins/session.server";
import { BOOK_SIZES, type BookSize } from "~/keepsakes/book/layout.server";
import { bookFileName, makeMemoryBook } from "~/keepsakes/book/memory-book.server";
import { sitePublicAddress } from "~/site/settings.server";
import { clientGone, downloadHeaders, errorResponse, streamedBody } from "~/platform/http.server";

/**
 * GET /admin/exports/book.pdf?size=a4|letter|trim: the memory book
 * (app/keepsakes/book/memory-book.server.ts), made in a temporary file, one book at a
 * time, then sent. Without an admin session, the login page, which comes back here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireFamily(request);
  const size = new URL(request.url).searchParams.get("size") ?? "a4";
  if (!(BOOK_SIZES as readonly string[]).includes(size)) {
    return errorResponse(400, { size: ["Choose A4, US Letter or 6 × 9 in book."] });
  }
  const now = Date.now();
  const signal = clientGone(request, context);
  // Registered before the book is made: a tab closed at any moment (while the
  // book waits its turn, is made, or is sent) removes the book.
  let book: { file: string; done: () => Promise<void> } | undefined;
  signal.addEventListener("abort", () => void book?.done(), { once: true });
  try {
    book = await makeMemoryBook({ size: size as BookSize, origin: sitePublicAddress(request), now, signal: signal });
  } catch (error) {
    // Nobody is left to answer.
    if (signal.aborted) return new Response(null, { status: 204 });
    throw error;
  }
  const made = book;
  if (signal.aborted) {
    await made.done();
    return new Response(null, { status: 204 });
  }
  const { size: bytes } = await stat(made.file);
  const body = streamedBody(
    () => {
      const file = createReadStream(made.file, { highWaterMark: 1024 * 1024 });
      file.once("close", () => void made.done());
      return file;
    },
    { drained: context.responseDrained, signal: signal },
  );
  return new Response(body, {
    headers: { ...downloadHeaders(bookFileName(size as BookSize, now), "application/pdf"), "Content-Length": String(bytes) },
  });
}

export const action = familyDownloadAction;
