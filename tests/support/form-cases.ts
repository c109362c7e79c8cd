// The site's conform forms, as the form tests exercise them: each
// form's id, schema and controls, and a submission the schema refuses.
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { expect } from "vitest";
import type { z } from "zod";
import { LoginSchema } from "~/admins/login.schema";
import { AcceptInvitationSchema, NewAdminSchema, PasswordChangeFormSchema, SetupSchema } from "~/admins/admin.schema";
import { MemoryFormSchema } from "~/guestbook/memory.schema";
import { PoemInput } from "~/poems/poem.schema";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import type { ControlType } from "~/utils/form-control";

export interface FormCase {
  formId: string;
  schema: z.ZodObject;
  controls: Record<string, ControlType>;
  defaultValue?: Record<string, unknown>;
  wrong: Record<string, string>;
}

export const FORMS: FormCase[] = [
  {
    formId: "guestbook",
    schema: MemoryFormSchema,
    controls: { name: "text", email: "email", phone: "tel", message: "textarea", canDisplay: "checkbox" },
    defaultValue: { canDisplay: true },
    wrong: { name: "", email: "not-an-email", phone: "x".repeat(41), message: "too short" },
  },
  {
    formId: "rsvp",
    schema: RsvpSchema,
    controls: { name: "text", email: "email", guestCount: "number", notes: "textarea" },
    defaultValue: { guestCount: "1" },
    wrong: { name: "Ann", email: "", guestCount: "11", notes: "Coming with family" },
  },
  {
    formId: "admin-login",
    schema: LoginSchema,
    controls: { username: "text", password: "password" },
    wrong: { username: "admin", password: "" },
  },
  {
    formId: "add-poem",
    schema: PoemInput,
    controls: { title: "text", author: "text", content: "textarea" },
    wrong: { title: "", author: "A. Poet", content: " " },
  },
  {
    formId: "add-admin",
    schema: NewAdminSchema,
    controls: { username: "text", password: "password" },
    wrong: { username: " ", password: "short" },
  },
  {
    formId: "change-password",
    schema: PasswordChangeFormSchema,
    controls: { currentPassword: "password", newPassword: "password", confirmPassword: "password" },
    wrong: { currentPassword: "", newPassword: "short", confirmPassword: "" },
  },
  {
    formId: "setup",
    schema: SetupSchema,
    controls: { setupCode: "text", username: "text", password: "password", confirmPassword: "password" },
    wrong: { setupCode: "", username: "anna", password: "short", confirmPassword: "" },
  },
  {
    formId: "invitation",
    schema: AcceptInvitationSchema,
    controls: { username: "text", password: "password", confirmPassword: "password" },
    wrong: { username: "", password: "long-enough", confirmPassword: "" },
  },
];

/** A refused submission of `entries`, as the action replies it. */
export function refused(schema: z.ZodObject, entries: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(entries)) form.append(key, value);
  const submission = parseWithZod(form, { schema });
  expect(submission.status).toBe("error");
  return submission.reply() as SubmissionResult<string[]>;
}
