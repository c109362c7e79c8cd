import { requireFamilyApi } from "~/admins/session.server";
import type { Actor } from "~/platform/actor.server";
import { invariantResponse, methodNotAllowed, readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { answerRefusals, failureToast } from "~/platform/refusal.server";
import type { ToastInput } from "~/utils/toast";
import { redirectWithToast } from "~/platform/toast.server";

/**
 * The action of a "Delete this …?" page (a memory, a photo or video, a poem):
 * only its own form deletes, and the answer goes back to `returnTo` with
 * what happened. `remove` answers whether there was something to delete.
 */
export async function answerConfirmedDelete(
  request: Request,
  rawId: string | undefined,
  by: Actor,
  options: {
    returnTo: string;
    remove: (id: number, by: Actor) => unknown;
    deleted: ToastInput;
    failed: ToastInput & { description: string };
  },
) {
  const form = await readFormData(request);
  invariantResponse(form.get("intent") === "delete", "This form does not know what to do. Please go back and try again.", {
    status: 400,
  });
  const id = idParam(rawId);
  try {
    const removed = id ? await options.remove(id, by) : undefined;
    return redirectWithToast(options.returnTo, removed ? options.deleted : options.failed);
  } catch (error) {
    return redirectWithToast(options.returnTo, failureToast(options.failed, error));
  }
}

/**
 * The action of a family-only API address that only deletes (`DELETE /api/admin/poems/{id}`,
 * …/admins/{id}, …/followers/{id}): 401 without an admin session, 403 for a helper, 405 for
 * another method, 204 once deleted, 404 `{"errors":{"id":[notFound]}}` for
 * an id that is not there (or not a number). `remove` answers whether there was something to delete.
 */
export async function answerApiDelete(
  request: Request,
  rawId: string | undefined,
  remove: (id: number, by: Actor) => unknown,
  notFound: string,
  allow = "DELETE",
) {
  const admin = await requireFamilyApi(request);
  if (request.method !== "DELETE") return methodNotAllowed(allow);
  const id = idParam(rawId);
  return answerRefusals(() => {
    invariantResponse(id && remove(id, admin), notFound, { status: 404, field: "id" });
    return new Response(null, { status: 204 });
  });
}
