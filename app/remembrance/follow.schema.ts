import { FOLLOW_TOPICS } from "../../db/schema";
import { EmailSchema } from "~/utils/email";
import { z } from "~/utils/zod";

// "Remember with us": the form on the home page, after signing the guest
// book and on /follow, and POST /api/follow. The browser gets only the HTML
// attributes worked out from this schema (docs/decisions/017).

const CHOOSE_TOPIC = `Choose at least one thing to hear about: ${FOLLOW_TOPICS.join(", ")}`;

export const FollowSchema = z.object({
  name: z
    .string({ message: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters")
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    .refine((value) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value), { message: "Name must be one line of plain text" }),
  email: EmailSchema,
  // A form sends one value per ticked box (one alone arrives as a string); the API a list.
  topics: z.preprocess(
    (value) => (typeof value === "string" ? [value] : value),
    z
      .array(z.enum(FOLLOW_TOPICS, { message: CHOOSE_TOPIC }), { message: CHOOSE_TOPIC })
      .min(1, CHOOSE_TOPIC)
      .max(FOLLOW_TOPICS.length, CHOOSE_TOPIC)
      .transform((topics) => FOLLOW_TOPICS.filter((topic) => topics.includes(topic))),
  ),
  website: z.string().optional(),
});
export type FollowInput = z.infer<typeof FollowSchema>;
