// What the life story's loader uses, in one module (the browser build replaces
// a `.server` module with one empty module: docs/decisions/017).
export { getPublishedLife } from "~/life/life.server";
export { uploadedLifePhoto } from "~/life/life-photo.server";
export { visitorLanguage } from "~/site/language.server";
export { translate } from "~/i18n/i18n.server";
