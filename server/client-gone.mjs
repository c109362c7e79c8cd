// @ts-check
// Whether the client is still there to take the answer, for a loader that
// works a long time before answering (the memory book) or while answering
// (the family archive).
//
// Remix's `request.signal` is not enough for that. The Request a loader gets
// is a copy of the one the Express adapter made, and Node's Request follows
// its parent's signal through a weak reference that a garbage collection can
// drop (nodejs/node#55428). After one, a tab closed during a two-minute book
// aborts nothing: the book is made, and its temporary file stays. This
// signal hangs on the response itself, which lives as long as the request.

/**
 * Aborts when `res` closes before its answer has been sent: the client went
 * away. Aborted at once if that has already happened.
 * @param {import("node:http").ServerResponse} res
 * @returns {AbortSignal}
 */
export function clientGoneSignal(res) {
  const controller = new AbortController();
  const closedEarly = () => {
    if (!res.writableFinished) controller.abort(new Error("The client went away before the answer was sent."));
  };
  if (res.destroyed) closedEarly();
  else res.once("close", closedEarly);
  return controller.signal;
}
