// What the attendance page needs in the browser, free of zod (docs/decisions/017).

export const MAX_GUESTS = 10;

export const RSVP_THANKS = {
  title: "Thank You",
  description: "Thank you for letting the family know you were there.",
} as const;
