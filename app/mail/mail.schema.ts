import type { MailChoice } from "../../db/schema";
import { z } from "~/utils/zod";

// Client-safe: an admin's e-mail choice, checked by the same schema in the
// E-mail tab's form (in the browser and its action) and PATCH /api/admin/email.

export const MAIL_CHOICE_LABELS: Record<MailChoice, string> = {
  each: "An e-mail for each new memory, photo and video",
  daily: "One summary a day",
  none: "No e-mail",
};

const emptyToUndefined = (value: unknown) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value);

export const MailPreferencesSchema = z
  .object({
    email: z.preprocess(
      emptyToUndefined,
      z
        .string({ error: "Enter a valid e-mail address" })
        .trim()
        .max(254, "The e-mail address must be at most 254 characters")
        .pipe(z.email("Enter a valid e-mail address"))
        .optional(),
    ),
    mailChoice: z.enum(["each", "daily", "none"], { message: "Choose each new item, a daily summary or no e-mail" }),
    digestTime: z.preprocess(
      emptyToUndefined,
      z
        .string({ error: "Choose a time such as 08:00" })
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Choose a time such as 08:00")
        .default("08:00"),
    ),
  })
  .refine((preferences) => preferences.mailChoice === "none" || preferences.email !== undefined, {
    path: ["email"],
    message: "Enter the address to send e-mail to",
  });
export type MailPreferencesInput = z.infer<typeof MailPreferencesSchema>;

/** One admin's e-mail choice, as the E-mail tab and GET /api/admin/email show it. */
export interface MailPreferences {
  email: string | null;
  mailChoice: MailChoice;
  /** "HH:MM" in the site's time zone. */
  digestTime: string;
  /** The address asked for no more e-mail (an unsubscribe link): saving the choice again allows it. */
  unsubscribed: boolean;
}

export const MAIL_SAVED = { title: "E-mail Saved", description: "Your e-mail choice has been saved." };
export const MAIL_RETRIED = { title: "Trying Again", description: "The e-mail will be sent again in a moment." };
