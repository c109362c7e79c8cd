// What the attendance page needs in the browser, free of zod (docs/decisions/017).

export const MAX_GUESTS = 10;
