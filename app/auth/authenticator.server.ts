import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { verifyAdminLogin, type Admin } from "~/models/admin.server";
import { fieldErrors, type FieldErrors } from "~/utils/http.server";
import { Refusal } from "~/utils/refusal.server";
import { LoginSchema } from "./login.schema";
import { loginSucceeded, MAX_FAILED_LOGINS, resetLoginThrottle, startLoginAttempt } from "./login-throttle.server";
import { bookPasswordCheck, PASSWORD_CHECKS_BUSY } from "./password.server";

export { MAX_FAILED_LOGINS, resetLoginThrottle };
export const TOO_MANY_LOGINS = "Too many failed login attempts. Please wait 15 minutes and try again.";

class InvalidLogin extends Error {
  constructor(readonly errors: FieldErrors) {
    super("invalid login form");
  }
}
class WrongCredentials extends Error {}

const authenticator = new Authenticator<Admin>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = LoginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new InvalidLogin(fieldErrors(parsed.error));
    const admin = await verifyAdminLogin(parsed.data.username, parsed.data.password);
    if (!admin) throw new WrongCredentials();
    return admin;
  }),
  "form",
);

export type LoginResult =
  | { ok: true; admin: Admin }
  | { ok: false; status: 400 | 401 | 429 | 503; errors: FieldErrors; retryAfterSeconds?: number };

/**
 * Checks login fields (from the form, or the JSON API's body) through
 * remix-auth's form strategy. Fields that are missing or too long are
 * refused before anything is counted or hashed; then the attempt is counted
 * (login-throttle.server.ts) before its password is hashed, and hashing
 * waits for one of a few slots (password.server.ts).
 */
export async function loginAdmin(fields: { username?: unknown; password?: unknown }, clientIp: string | undefined): Promise<LoginResult> {
  const form = new URLSearchParams();
  if (typeof fields.username === "string") form.set("username", fields.username);
  if (typeof fields.password === "string") form.set("password", fields.password);
  const parsed = LoginSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, status: 400, errors: fieldErrors(parsed.error) };
  // Answered at once when enough checks are running and waiting, without using up an attempt.
  const release = bookPasswordCheck();
  if (!release) return { ok: false, status: 503, errors: { form: [PASSWORD_CHECKS_BUSY] }, retryAfterSeconds: 5 };
  const attempt = startLoginAttempt(parsed.data.username, clientIp);
  if (!attempt.allowed) {
    release();
    return { ok: false, status: 429, errors: { form: [TOO_MANY_LOGINS] }, retryAfterSeconds: attempt.retryAfterSeconds };
  }
  // The strategy reads a request's form body: give it one of exactly these fields.
  const request = new Request("http://localhost/admin/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
  try {
    const admin = await authenticator.authenticate("form", request);
    loginSucceeded(attempt);
    return { ok: true, admin };
  } catch (error) {
    if (error instanceof InvalidLogin) return { ok: false, status: 400, errors: error.errors };
    if (error instanceof WrongCredentials) return { ok: false, status: 401, errors: { form: ["Invalid username or password."] } };
    // The hashing queue filled up meanwhile (password.server.ts).
    if (error instanceof Refusal && error.status === 503) {
      return { ok: false, status: 503, errors: { form: [error.message] }, retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  } finally {
    release();
  }
}
