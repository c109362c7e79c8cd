import type { Actor } from "~/platform/actor.server";
import { invariantResponse, readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { failureToast } from "~/platform/refusal.server";
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
