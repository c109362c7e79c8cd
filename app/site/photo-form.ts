// Client-safe, and free of the site's defaults (app/content.ts): what every
// photo upload form of the admin panel (the hero's, the life story's) offers.

/** What the file pickers offer; the server decides from the bytes themselves. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif";
/** The title of a refused photo form. */
export const PHOTO_FAILED = "Photo Not Saved";
