// The guest book's numbers the public page needs in the browser, free of zod
// (which the page must not load: docs/decisions/017).

export const MESSAGE_MIN_LENGTH = 10;
export const GUESTBOOK_PAGE_SIZE = 10;
export const GUESTBOOK_MAX_LIMIT = 50;
