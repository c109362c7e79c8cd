import type { AdminActor } from "~/platform/actor.server";
import { readFirstInEffect } from "~/site/read-first.server";

// While helpers read first (app/site/read-first.server.ts), the family's
// Pending tabs and the pending lists of the API do not list what waits for
// the helpers; `?show=all` asks for it on purpose. Helpers always see it all.

/** Whether the request asks on purpose to see what waits for the helpers. */
export const showsAll = (request: Request) => new URL(request.url).searchParams.get("show") === "all";

/** Whether helpers read first for this family admin (the tab counts are then plain, never marked). */
export const readFirstFor = (admin: Pick<AdminActor, "role">) => admin.role === "family" && readFirstInEffect();

/**
 * How a Pending tab stands for `admin` on this request: "held" (the notice
 * instead of the list: the family's, while helpers read first), "shown"
 * (the list, asked for on purpose) or null (as ever; always for a helper).
 */
export function readFirstView(admin: Pick<AdminActor, "role">, request: Request): "held" | "shown" | null {
  if (!readFirstFor(admin)) return null;
  return showsAll(request) ? "shown" : "held";
}

/** Whether what is pending is kept from `admin`'s lists for this request. */
export const pendingHeld = (admin: Pick<AdminActor, "role">, request: Request) => readFirstView(admin, request) === "held";
