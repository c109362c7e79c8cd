import type { Status } from "../../db/schema";
import { z } from "~/utils/zod";

// The rules for a guest book memory, one schema for the form action and
// POST /api/guestbook, so they never disagree. The public form's browser side
// gets the HTML attributes worked out from it on the server (form-schema.server.ts),
// never zod itself.

import { moderationStatus } from "~/utils/moderation";
import { EmailSchema } from "~/utils/email";
import { MESSAGE_MIN_LENGTH } from "./memory.constants";

const emptyToUndefined = (value: unknown) => (value === null || value === "" ? undefined : value);

/** The fields and messages shared by the guest book form and POST /api/guestbook. */
const memoryFields = {
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  email: EmailSchema,
  phone: z.preprocess(
    emptyToUndefined,
    z.string({ error: "Phone must be text" }).trim().max(40, "Phone must be at most 40 characters").optional(),
  ),
  // Browsers send a textarea's line breaks as CRLF; store them as plain newlines.
  message: z.preprocess(
    (value) => (typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value),
    z
      .string({ error: `Message must be at least ${MESSAGE_MIN_LENGTH} characters` })
      .trim()
      .min(MESSAGE_MIN_LENGTH, `Message must be at least ${MESSAGE_MIN_LENGTH} characters`)
      .max(5000, "Message must be at most 5,000 characters"),
  ),
};

/** The HTML form: an unticked checkbox sends nothing, which means "do not display". */
export const MemoryFormSchema = z.object({
  ...memoryFields,
  canDisplay: z.boolean().default(false),
  // "E-mail me when the family has added my memory" (shown only when the site sends e-mail).
  notifyWhenPublished: z.boolean().default(false),
  // Honeypot: hidden from people, filled in by bots.
  website: z.string().optional(),
});

/** The JSON API: canDisplay defaults to true, as the spec says. */
export const MemoryApiSchema = z.object({
  ...memoryFields,
  canDisplay: z.boolean({ error: "canDisplay must be true or false" }).default(true),
  notifyWhenPublished: z.boolean({ error: "notifyWhenPublished must be true or false" }).default(false),
});

export type MemoryInput = z.infer<typeof MemoryApiSchema>;

/** The family's correction of a memory: the name and the message, with the guest book's own rules. */
export const MemoryEditSchema = z.object({ name: memoryFields.name, message: memoryFields.message });

/**
 * PATCH /api/admin/memories/{id}: a new status, a correction of the name or
 * message, or both; the fields the Edit form sends have its rules.
 */
export const MemoryPatchSchema = z
  .object({
    status: moderationStatus.optional(),
    name: MemoryEditSchema.shape.name.optional(),
    message: MemoryEditSchema.shape.message.optional(),
  })
  .refine((patch) => patch.status !== undefined || patch.name !== undefined || patch.message !== undefined, {
    message: "Send a status, a name or a message to change",
    // Named after the spec's one field of this call, as an empty PATCH was before corrections existed.
    path: ["status"],
  });
export type MemoryPatch = z.infer<typeof MemoryPatchSchema>;

/** What visitors and the public API see of a memory: never the email or phone. */
export interface PublicMemory {
  id: number;
  name: string;
  message: string;
  createdAt: string;
}

/** What the administrator sees of a memory: everything, contact details included. */
export interface AdminMemory {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  canDisplay: boolean;
  status: Status;
  /** Rejected by a helper: kept whole, shown only in the family's Set aside view, for them to publish or delete. */
  setAside: boolean;
  createdAt: string;
  /** The admin who last approved, rejected or unpublished it, and when (null while pending). */
  moderatedBy: string | null;
  moderatedAt: string | null;
  /** Once the family has corrected it: the name and message as the visitor sent them, and who corrected it last, when. */
  originalName: string | null;
  originalMessage: string | null;
  editedBy: string | null;
  editedAt: string | null;
  /** The author asked for an e-mail once it is published; when that e-mail was queued (null: not yet). */
  notifyWhenPublished: boolean;
  publishedNoticeAt: string | null;
}
