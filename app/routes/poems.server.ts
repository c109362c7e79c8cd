// What the poems route's loader uses, in one module: the browser build
// replaces a `.server` module with an empty one (docs/decisions/017).
export { listPoems } from "~/poems/poem.server";
export { addedAgo } from "~/utils/relative-time";
export { visitorLanguage } from "~/site/language.server";
export { pageWords, translate } from "~/i18n/i18n.server";
