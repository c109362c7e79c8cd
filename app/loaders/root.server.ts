// What the layout route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { getToast } from "~/utils/toast.server";
export { publicOrigin } from "~/utils/http.server";
export { config } from "~/config.server";
export { getSiteView } from "~/models/settings.server";
export { siteViewWhileLocked } from "~/models/privacy.server";
export { isVisitorLocked } from "~/auth/visitor-passcode.server";
export { isKarenModeOn } from "~/utils/karen-mode.server";
