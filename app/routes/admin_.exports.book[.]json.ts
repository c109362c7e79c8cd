import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/auth/session.server";
import { bookProgress } from "~/models/memory-book.server";
import { PRIVATE_NO_STORE, readOnlyAction } from "~/utils/http.server";

/** GET /admin/exports/book.json: how far the memory book being made has got ({making: null} when none is). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminApi(request);
  return json({ making: bookProgress() }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = readOnlyAction;
