import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { familyReadOnlyAction, requireFamilyApi } from "~/admins/session.server";
import { bookProgress } from "~/keepsakes/book/memory-book.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";

/** GET /admin/exports/book.json: how far the memory book being made has got ({making: null} when none is). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamilyApi(request);
  return json({ making: bookProgress() }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export const action = familyReadOnlyAction;
