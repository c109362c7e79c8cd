// What the voice page's loader uses, in one module (the browser build
// replaces a `.server` module with one empty module: docs/decisions/017).
export { json } from "@remix-run/node";
export { invariantResponse } from "~/platform/http.server";
export { getVoice } from "~/voices/voices.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords } from "~/i18n/i18n.server";
