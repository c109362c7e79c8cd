// What the rsvp route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { createRsvp, rsvpForm } from "~/models/rsvp.server";
export { noStoreHeaders, readFormData } from "~/utils/http.server";
export { replyIfRefused } from "~/utils/refusal.server";
export { redirectWithToast } from "~/utils/toast.server";
export { getSiteView } from "~/models/settings.server";
