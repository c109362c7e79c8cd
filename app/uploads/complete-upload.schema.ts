// What POST /api/uploads/complete takes, and who shares: one schema for the
// JSON API, the share form's name and e-mail, and the voice form's sender.
import { z } from "~/utils/zod";
import { VOICE_LINE_MAX } from "~/media/limits";
import { EmailSchema } from "~/utils/email";

/** The spec's internal error for an upload without a name and email (§8). */
const NAME_AND_EMAIL_REQUIRED = "Name and email are required";

const hint = z.number().finite().nonnegative().nullish();

/**
 * Who shares: the name and e-mail the share form asks for. The plain form
 * checks its two fields with it, and the JSON API the same two parts of its
 * submittedBy, "name (email)", so the two can never disagree.
 */
export const SubmitterSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  email: EmailSchema,
});

const SUBMITTED_BY = /^(.*)\(([^()]*)\)$/;

/** submittedBy as the share form makes it: "name (something)", both filled in (the address is checked on its own). */
function namesSomeone(label: string) {
  const match = SUBMITTED_BY.exec(label);
  return !!match && SubmitterSchema.shape.name.safeParse(match[1]).success && match[2]!.trim() !== "";
}

/** POST /api/uploads/complete. Width, height and duration are hints only: the server measures them itself. */
export const CompleteUploadSchema = z
  .object({
    uploadURL: z.string({ message: "uploadURL is required" }).trim().min(1, "uploadURL is required").max(4096, "uploadURL is too long"),
    // The same name and email the share form asks for, as the spec's "name (email)".
    submittedBy: z.string({ message: NAME_AND_EMAIL_REQUIRED }).trim().max(400, "submittedBy must be at most 400 characters"),
    type: z.enum(["IMAGE", "VIDEO", "AUDIO"], { message: "type must be IMAGE, VIDEO or AUDIO" }).nullish(),
    originalName: z
      .string({ message: "originalName must be text" })
      .trim()
      .max(255, "originalName must be at most 255 characters")
      .nullish()
      .transform((name) => name || "Unknown"),
    width: hint,
    height: hint,
    durationSec: hint,
    // "E-mail me when the family has added my photos" (the share page shows it only when the site sends e-mail).
    notifyWhenPublished: z.boolean({ message: "notifyWhenPublished must be true or false" }).optional(),
    // A voice memory's line and permission, as the voice form asks for them.
    caption: z
      .string({ message: "caption must be text" })
      .trim()
      .max(VOICE_LINE_MAX, `caption must be at most ${VOICE_LINE_MAX} characters`)
      .nullish(),
    canDisplay: z.boolean({ message: "canDisplay must be true or false" }).optional(),
  })
  .superRefine(({ submittedBy, type }, ctx) => {
    // A voice may be sent with a name alone, as the voice form allows; anything else names its sender's address too.
    if (type === "AUDIO" && !SUBMITTED_BY.test(submittedBy)) {
      if (!SubmitterSchema.shape.name.safeParse(submittedBy).success) {
        ctx.addIssue({ code: "custom", path: ["submittedBy"], message: "A name is required" });
      }
      return;
    }
    if (!namesSomeone(submittedBy)) {
      ctx.addIssue({ code: "custom", path: ["submittedBy"], message: NAME_AND_EMAIL_REQUIRED });
      return;
    }
    // The address in the parentheses is one mailbox, in the guest book's words, keyed as the share form's field.
    const match = SUBMITTED_BY.exec(submittedBy);
    if (!match) return;
    const checked = EmailSchema.safeParse(match[2]);
    if (!checked.success) ctx.addIssue({ code: "custom", path: ["email"], message: checked.error.issues[0]!.message });
  });
export type CompleteUploadInput = z.infer<typeof CompleteUploadSchema>;
