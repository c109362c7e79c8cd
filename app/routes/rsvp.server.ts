// What the rsvp route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { createRsvp, rsvpForm } from "~/attendance/rsvp.server";
export { noStoreHeaders, readFormData } from "~/platform/http.server";
export { replyIfRefused } from "~/platform/refusal.server";
export { redirectWithToast } from "~/platform/toast.server";
export { getSiteView } from "~/site/settings.server";
export { pageWords, translate } from "~/i18n/i18n.server";
export { visitorLanguage } from "~/site/language.server";
