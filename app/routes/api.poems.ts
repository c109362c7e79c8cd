import { json } from "@remix-run/node";
import { listPoems } from "~/models/poem.server";
import { NO_STORE, readOnlyAction } from "~/utils/http.server";

export async function loader() {
  return json(listPoems(), { headers: { "Cache-Control": NO_STORE } });
}

export const action = readOnlyAction;
