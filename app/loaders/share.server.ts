// What the share route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { mailEnabled } from "~/models/outbox.server";
export {
  receiveShareForm,
  refusedShareForm,
  SHARE_FORM,
  shareFormSink,
  type ShareOutcome,
  type ShareResult,
} from "~/models/upload-form.server";
export { loaderCacheControl, PRIVATE_NO_STORE } from "~/utils/http.server";
export { readMultipartForm } from "~/utils/multipart.server";
export { readRecentUploads, rememberRecentUploads } from "~/utils/recent-uploads.server";
export { redirectWithToast } from "~/utils/toast.server";
