// What the follow routes' loaders and actions use, in one module: the
// browser build replaces a `.server` module with an empty one, and one
// import costs the page one empty module (docs/decisions/017).
export { json, redirect } from "@remix-run/node";
export { confirmFollow, followForm, requestFollow } from "~/remembrance/followers.server";
export { followOffer } from "~/remembrance/follower-news.server";
export { TOPIC_LABELS } from "~/remembrance/follow.constants";
export { noStoreHeaders, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
export { replyIfRefused } from "~/platform/refusal.server";
export { pageWords } from "~/i18n/i18n.server";
export { visitorLanguage } from "~/site/language.server";
