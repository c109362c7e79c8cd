// What the home page's loader uses, in one module (the browser build replaces
// a `.server` module with one empty module: docs/decisions/017).
export { candleSectionHtml } from "~/routes/candle-section.server";
export { homeLifeStory } from "~/life/life.server";
export { followFormHtml } from "~/routes/follow-form.server";
export { pageWords } from "~/i18n/i18n.server";
export { visitorLanguage } from "~/site/language.server";
export { homePerson } from "~/site/person-structured-data.server";
export { getSiteView } from "~/site/settings.server";
export { isVisitorLocked } from "~/site/visitor-passcode.server";
export { calendarSubscribeHtml } from "~/routes/calendar-subscribe.server";
