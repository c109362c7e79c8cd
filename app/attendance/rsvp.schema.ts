import { z } from "~/utils/zod";
import { MAX_GUESTS } from "./rsvp.constants";

// The attendance form's and the API's rules. The public form's browser side
// gets the HTML attributes worked out from it on the server, never zod itself.
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((value) => value || undefined);

export const RsvpSchema = z.object({
  name: z.string({ message: "Name is required" }).trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  email: z
    .string({ message: "Valid email is required" })
    .trim()
    .max(254, "Email must be at most 254 characters")
    .pipe(z.email({ message: "Valid email is required" })),
  // Forms send text; the API may send a number or a numeric string. Empty means the default.
  guestCount: z.preprocess(
    (value) => (value === "" || value === null || value === undefined ? 1 : value),
    z.coerce
      .number({ message: `Number of guests must be a whole number from 1 to ${MAX_GUESTS}` })
      .int(`Number of guests must be a whole number from 1 to ${MAX_GUESTS}`)
      .min(1, "Number of guests must be at least 1")
      .max(MAX_GUESTS, `Number of guests must be at most ${MAX_GUESTS}`),
  ),
  notes: optionalText(1000, "Notes must be at most 1,000 characters"),
  website: z.string().optional(),
});
export type RsvpInput = z.infer<typeof RsvpSchema>;
