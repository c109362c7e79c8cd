import { json } from "@remix-run/node";
import { listPoems } from "~/poems/poem.server";
import { NO_STORE, readOnlyAction } from "~/platform/http.server";

export async function loader() {
  return json(listPoems(), { headers: { "Cache-Control": NO_STORE } });
}

export const action = readOnlyAction;
