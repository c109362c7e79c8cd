// What the voices routes' loaders and actions use, in one module (the browser
// build replaces a `.server` module with one empty module: docs/decisions/017).
export { json } from "@remix-run/node";
export { noStoreHeaders } from "~/platform/http.server";
export { redirectWithToast } from "~/platform/toast.server";
export { voiceFormHtml } from "~/routes/voice-section.server";
export { receiveVoiceRequest } from "~/voices/voice-form.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords, translate } from "~/i18n/i18n.server";
