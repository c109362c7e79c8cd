import { errorResponse } from "~/platform/http.server";

/** Unknown API paths answer in JSON, in the API's error shape. */
function notFound() {
  return errorResponse(404, { path: ["There is nothing at this address in the API"] });
}

export const loader = notFound;
export const action = notFound;
