// What the attendance page needs in the browser, free of zod (docs/decisions/017).

export const MAX_GUESTS = 10;

/** The thanks after an answer: in the future tense until the service is over; the title thanks, so the sentence need not again. */
export const rsvpThanks = (serviceOver: boolean) =>
  ({
    title: "Thank You",
    description: serviceOver ? "The family will be glad to know you were there." : "The family will be glad to know you're coming.",
  }) as const;

/** The home page's link to the attendance page. */
export const rsvpLinkText = (serviceOver: boolean) =>
  serviceOver ? "Let the family know you attended" : "Let the family know you're coming";
