// What the slideshow route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { listSlideshow } from "~/uploads/gallery.server";
export { loaderCacheControl, NO_STORE } from "~/platform/http.server";
export { publicAddressCheck } from "~/site/settings.server";
export { getAdmin } from "~/admins/session.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords } from "~/i18n/i18n.server";
