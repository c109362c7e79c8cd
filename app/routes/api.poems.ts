import { json } from "@remix-run/node";
import { listPoems } from "~/models/poem.server";

export async function loader() {
  return json(listPoems(), { headers: { "Cache-Control": "no-store" } });
}
