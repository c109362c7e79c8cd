// What the attendance page needs in the browser, free of zod (docs/decisions/017).

export const MAX_GUESTS = 10;

/** The home page's link to the attendance page. */
export const rsvpLinkText = (serviceOver: boolean) =>
  serviceOver ? "Let the family know you attended" : "Let the family know you're coming";
