// What the guestbook route's loader and action use, in one module: the browser
// build replaces a `.server` module with an empty one, and one import costs
// the page one empty module instead of a file each (docs/decisions/017).
// `json` too: @remix-run/node is such an empty module in the browser.
export { json } from "@remix-run/node";
export type { PublicMemory } from "~/models/memory.schema";
export { listPublicMemories, memoryForm, submitMemory } from "~/models/memory.server";
export { mailEnabled } from "~/models/outbox.server";
export { noStoreHeaders, readFormData } from "~/utils/http.server";
export { decodeCursor } from "~/utils/page-cursor.server";
export { replyIfRefused } from "~/utils/refusal.server";
export { redirectWithToast } from "~/utils/toast.server";
export { relativeTime } from "~/utils/relative-time";
