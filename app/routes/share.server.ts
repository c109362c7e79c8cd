// What the share route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { mailEnabled } from "~/mail/outbox.server";
export {
  receiveShareForm,
  refusedShareForm,
  SHARE_FORM,
  shareFormSink,
  type ShareOutcome,
  type ShareResult,
} from "~/uploads/upload-form.server";
export { loaderCacheControl, PRIVATE_NO_STORE } from "~/platform/http.server";
export { readMultipartForm } from "~/platform/multipart.server";
export { readRecentUploads, rememberRecentUploads } from "~/uploads/recent-uploads.server";
export { redirectWithToast } from "~/platform/toast.server";
export { voiceFormHtml } from "~/routes/voice-section.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords, translate } from "~/i18n/i18n.server";
