import { z } from "~/utils/zod";

/**
 * One mailbox, by the guest book's rule: a visitor's address anywhere (the
 * guest book, the share form, submittedBy) and every address an e-mail is
 * queued to. A list ("a@x,b@y"), a display name or angle brackets are not
 * one address, so nobody can make the site write to people of their choosing.
 */
export const EmailSchema = z
  .string({ error: "Valid email is required" })
  .trim()
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email("Valid email is required"));
