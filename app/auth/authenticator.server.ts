import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { verifyAdminLogin, type Admin } from "~/models/admin.server";
import { fieldErrors, type FieldErrors } from "~/utils/http.server";
import { LoginSchema } from "./login.schema";
import { createRateLimiter } from "./rate-limit.server";

export const MAX_FAILED_LOGINS = 5;
const LOCKOUT_MS = 15 * 60 * 1000;
export const TOO_MANY_LOGINS = "Too many failed login attempts. Please wait 15 minutes and try again.";

// Failures per username and per network address within 15 minutes.
const failures = createRateLimiter({ limit: MAX_FAILED_LOGINS, windowMs: LOCKOUT_MS });

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
  | { ok: false; status: 400 | 401 | 429; errors: FieldErrors; retryAfterSeconds?: number };

/**
 * Checks login fields (from the form, or the JSON API's body) through
 * remix-auth's form strategy, with a lockout after five failures for one
 * username or one address.
 */
export async function loginAdmin(fields: { username?: unknown; password?: unknown }, clientIp: string | undefined): Promise<LoginResult> {
  const form = new URLSearchParams();
  if (typeof fields.username === "string") form.set("username", fields.username);
  if (typeof fields.password === "string") form.set("password", fields.password);
  // The strategy reads a request's form body: give it one of exactly these fields.
  const request = new Request("http://localhost/admin/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const username = (form.get("username") ?? "").trim().toLowerCase();
  const keys = [`ip:${clientIp ?? "unknown"}`, ...(username ? [`user:${username}`] : [])];
  const blocked = keys.map((key) => failures.check(key)).find((result) => !result.allowed);
  if (blocked) return { ok: false, status: 429, errors: { form: [TOO_MANY_LOGINS] }, retryAfterSeconds: blocked.retryAfterSeconds };
  try {
    const admin = await authenticator.authenticate("form", request);
    for (const key of keys) failures.reset(key);
    return { ok: true, admin };
  } catch (error) {
    if (error instanceof InvalidLogin) return { ok: false, status: 400, errors: error.errors };
    if (error instanceof WrongCredentials) {
      for (const key of keys) failures.hit(key);
      return { ok: false, status: 401, errors: { form: ["Invalid username or password."] } };
    }
    throw error;
  }
}

export function resetLoginThrottle() {
  failures.reset();
}
