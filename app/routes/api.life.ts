import { json } from "@remix-run/node";
import { publicLifeApi } from "~/life/life.server";
import { errorResponse, NO_STORE, readOnlyAction } from "~/platform/http.server";

/** GET /api/life → the published life story; 404 until the family publishes it. */
export async function loader() {
  const life = publicLifeApi();
  if (!life) return errorResponse(404, { life: ["The life story has not been published"] }, { headers: { "Cache-Control": NO_STORE } });
  return json(life, { headers: { "Cache-Control": NO_STORE } });
}

export const action = readOnlyAction;
