// What the layout route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export { getToast } from "~/platform/toast.server";
export { publicOrigin } from "~/platform/http.server";
export { config } from "~/platform/config.server";
export { getSiteView } from "~/site/settings.server";
export { siteViewWhileLocked } from "~/site/privacy.server";
export { isVisitorLocked } from "~/site/visitor-passcode.server";
export { isKarenModeOn } from "~/site/karen-mode.server";
export { isLifePublished } from "~/life/life.server";
export { visitorLanguage, rememberLanguageHeader } from "~/site/language.server";
export { pageWords } from "~/i18n/i18n.server";
