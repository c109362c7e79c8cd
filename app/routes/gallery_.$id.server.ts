// What the gallery item page's loader uses, in one module (the browser build
// replaces a `.server` module with one empty module: docs/decisions/017).
export { json, redirect } from "@remix-run/node";
export { getGalleryItem } from "~/uploads/gallery.server";
export { invariantResponse } from "~/platform/http.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords } from "~/i18n/i18n.server";
