import { json } from "@remix-run/node";

/** Unknown API paths answer in JSON, like the rest of /api. */
function notFound() {
  return json({ error: "Not found" }, { status: 404 });
}

export const loader = notFound;
export const action = notFound;
