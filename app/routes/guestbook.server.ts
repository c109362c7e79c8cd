// What the guestbook route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export type { PublicMemory } from "~/guestbook/memory.schema";
export { listPublicMemories, memoryForm, submitMemory } from "~/guestbook/memory.server";
export { candleSectionHtml } from "~/routes/candle-section.server";
export { mailEnabled } from "~/mail/outbox.server";
export { followFormHtml } from "~/routes/follow-form.server";
export { noStoreHeaders, readFormData } from "~/platform/http.server";
export { decodeCursor } from "~/platform/page-cursor.server";
export { replyIfRefused } from "~/platform/refusal.server";
export { peekToast, redirectWithToast } from "~/platform/toast.server";
export { relativeTime } from "~/utils/relative-time";
export { voiceFormHtml, voiceListHtml } from "~/routes/voice-section.server";
export { visitorLanguage } from "~/site/language.server";
export { pageWords, translate } from "~/i18n/i18n.server";
