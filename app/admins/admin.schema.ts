import { ROLES, type Role } from "../../db/schema";
import { z } from "~/utils/zod";

// The rules for the family's admins (adding one, the first-run setup, an
// invitation, changing a password), shared by the forms in the browser, their
// actions and the JSON API, so they never disagree.

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 1000;
const USERNAME_MAX_LENGTH = 100;
/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

// Control characters are exactly what this refuses.
// eslint-disable-next-line no-control-regex
const hasControlCharacters = (text: string) => /[\u0000-\u001f\u007f]/.test(text);

const username = z
  .string({ error: "Username is required" })
  .trim()
  .min(1, "Username is required")
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .refine((text) => !hasControlCharacters(text), "Username must not contain control characters");

const newPassword = (label: string) =>
  z
    .string({ error: `${label} must be at least ${PASSWORD_MIN_LENGTH} characters` })
    .min(PASSWORD_MIN_LENGTH, `${label} must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `${label} must be at most 1,000 characters`);

const confirmPassword = z.string({ error: "Please type the password again" }).min(1, "Please type the password again");
const PASSWORDS_DIFFER = "The two passwords are not the same";

const ROLE_MESSAGE = "Role must be family or helper";
/** What an admin may do; "family" when not said, as every admin was before helpers. */
const roleField = z.enum(ROLES, { error: ROLE_MESSAGE }).default("family");

/** Add an admin: the form of the Family admins section and POST /api/admin/admins. */
export const NewAdminSchema = z.object({ username, password: newPassword("Password"), role: roleField });

/** PATCH /api/admin/admins/{id}, and the list's "Make helper" / "Make family" buttons. */
export const RoleChangeSchema = z.object({ role: z.enum(ROLES, { error: ROLE_MESSAGE }) });

/** A new invitation names the role its person gets. */
export const InvitationSchema = z.object({ role: roleField });
/** An admin to add; without a role, a family one. */
export type NewAdmin = z.input<typeof NewAdminSchema>;

/** POST /api/admin/password. */
export const PasswordChangeSchema = z.object({
  currentPassword: z
    .string({ error: "Current password is required" })
    .min(1, "Current password is required")
    .max(PASSWORD_MAX_LENGTH, "Current password is too long"),
  newPassword: newPassword("New password"),
});
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

/** The form asks for the new password twice. */
export const PasswordChangeFormSchema = z
  .object({ ...PasswordChangeSchema.shape, confirmPassword })
  .refine((form) => form.newPassword === form.confirmPassword, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

/** A new admin choosing their own username and password (the first-run setup, an invitation). */
const ownAccount = { username, password: newPassword("Password"), confirmPassword };
const samePasswords = (form: { password: string; confirmPassword: string }) => form.password === form.confirmPassword;

export const AcceptInvitationSchema = z.object(ownAccount).refine(samePasswords, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

export const SetupSchema = z
  .object({
    setupCode: z.string({ error: "Setup code is required" }).trim().min(1, "Setup code is required").max(100, "Setup code is too long"),
    ...ownAccount,
  })
  .refine(samePasswords, { path: ["confirmPassword"], message: PASSWORDS_DIFFER });

/** An admin as the list and GET /api/admin/admins show them. */
export interface AdminSummary {
  id: number;
  username: string;
  role: Role;
  createdAt: string;
}

/** A new invitation link, shown once to the admin who made it. */
export interface InvitationLink {
  link: string;
  expiresAt: string;
  role: Role;
}

/** What the Family admins section shows. */
export interface FamilyAdminsData {
  admins: AdminSummary[];
  /** The admin looking at it. */
  me: { id: number; username: string; role: Role };
  /** The invitation link just made, on the first page after making it; null after that. */
  invitation: InvitationLink | null;
}

export const USERNAME_TAKEN = "That username is already taken. Please choose another.";
export const LAST_ADMIN = "The memorial always needs at least one admin, so the last one cannot be removed. Add another admin first.";
export const NO_SUCH_ADMIN = "There is no admin with this id";
export const WRONG_CURRENT_PASSWORD = "The current password is not right.";

export const ADMIN_ADDED = (name: string, role: Role = "family") => ({
  title: "Admin Added",
  description: role === "helper" ? `${name} can now log in to the admin panel as a helper.` : `${name} can now log in to the admin panel.`,
});
export const ADMIN_REMOVED = (name: string) => ({ title: "Admin Removed", description: `${name} can no longer log in.` });
export const SELF_REMOVED = {
  title: "Admin Removed",
  description: "You are no longer an admin of this memorial and have been logged out.",
};
export const NOT_REMOVED = { title: "Not Removed", type: "destructive" as const };
export const INVITATION_CREATED = {
  title: "Invitation Created",
  description: "Your invitation link is in the Family admins section: copy it and send it to the person. It works once, within 7 days.",
};
export const PASSWORD_CHANGED = {
  title: "Password Changed",
  description: "Your password has been changed. Anywhere else you were logged in has been logged out.",
};
export const WELCOME_FIRST_ADMIN = {
  title: "Welcome",
  description: "You are the memorial's first admin. Start with the site's settings.",
};
export const WELCOME_INVITED = { title: "Welcome", description: "You are now an admin of this memorial." };
export const WELCOME_HELPER = {
  title: "Welcome",
  description: "You are now a helper on this memorial: new memories, photos and videos wait for you to read them first.",
};
export const ROLE_CHANGED_TOAST = (name: string, role: Role) => ({
  title: "Role Changed",
  description:
    role === "family" ? `${name} is now family: they can do everything.` : `${name} is now a helper: they can moderate, and nothing more.`,
});
