// What the attendance page needs in the browser, free of zod (docs/decisions/017).

export const MAX_GUESTS = 10;

/** The thanks after an answer: in the future tense until the service is over. */
export const rsvpThanks = (serviceOver: boolean) =>
  ({
    title: "Thank You",
    description: serviceOver
      ? "Thank you for letting the family know you were there."
      : "Thank you for letting the family know you're coming.",
  }) as const;

/** The home page's link to the attendance page. */
export const rsvpLinkText = (serviceOver: boolean) =>
  serviceOver ? "Let the family know you attended" : "Let the family know you're coming";
