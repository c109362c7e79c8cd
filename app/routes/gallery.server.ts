// What the gallery route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { listGallery } from "~/uploads/gallery.server";
export { decodeCursor } from "~/platform/page-cursor.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords } from "~/i18n/i18n.server";
