import { AsyncLocalStorage } from "node:async_hooks";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { verifyAdminLogin, type Admin } from "~/admins/admin.server";
import { fieldErrors, type FieldErrors } from "~/platform/http.server";
import { Refusal } from "~/platform/refusal.server";
import { JsonStrategy } from "./json-strategy.server";
import { LOGIN_FAILED, LoginSchema } from "./login.schema";
import { loginSucceeded, MAX_FAILED_LOGINS, resetLoginThrottle, startLoginAttempt } from "./login-throttle.server";
import { bookPasswordCheck, PASSWORD_CHECKS_BUSY } from "./password.server";

export { MAX_FAILED_LOGINS, resetLoginThrottle };
export const TOO_MANY_LOGINS = "Too many failed login attempts. Please wait 15 minutes and try again.";

const Credentials = LoginSchema.pick({ username: true, password: true });

/** Fields missing or too long: the form shows each message beside its field. */
class InvalidLogin extends Error {
  constructor(readonly errors: FieldErrors) {
    super("invalid login fields");
  }
}

/**
 * The network a login comes from, which the throttle counts it against. The
 * server knows it (the socket, or Fly's header), the Request does not, and a
 * strategy is handed only the Request: loginAdmin sets it around the call.
 */
const loginNetwork = new AsyncLocalStorage<{ clientIp: string | undefined }>();

/**
 * Checks a username and password. Fields that are missing or too long are
 * refused before anything is counted or hashed; then the attempt is counted
 * (login-throttle.server.ts) before its password is hashed, and hashing
 * waits for one of a few slots (password.server.ts).
 */
async function checkCredentials(fields: { username: unknown; password: unknown }): Promise<Admin> {
  const parsed = Credentials.safeParse(fields);
  if (!parsed.success) throw new InvalidLogin(fieldErrors(parsed.error));
  // Answered at once when enough checks are running and waiting, without using up an attempt.
  const release = bookPasswordCheck();
  if (!release) throw new Refusal(503, "form", PASSWORD_CHECKS_BUSY, 5);
  try {
    const attempt = startLoginAttempt(parsed.data.username, loginNetwork.getStore()?.clientIp);
    if (!attempt.allowed) throw new Refusal(429, "form", TOO_MANY_LOGINS, attempt.retryAfterSeconds);
    const admin = await verifyAdminLogin(parsed.data.username, parsed.data.password);
    if (!admin) throw new Refusal(401, "form", LOGIN_FAILED.description);
    loginSucceeded(attempt);
    return admin;
  } finally {
    release();
  }
}

// The login page's form (remix-auth-form reads the request's form body) and
// POST /api/admin/login's JSON body: the same check behind both.
const authenticator = new Authenticator<Admin>()
  .use(new FormStrategy(({ form }) => checkCredentials({ username: form.get("username"), password: form.get("password") })), "form")
  .use(new JsonStrategy(({ body }) => checkCredentials({ username: body.username, password: body.password })), "json");

export type LoginResult =
  { ok: true; admin: Admin } | { ok: false; status: 400 | 401 | 429 | 503; errors: FieldErrors; retryAfterSeconds?: number };

const ANSWERED = new Set([401, 429, 503]);

/**
 * Logs the administrator in from `request`'s body: "form" for the login
 * page's form, "json" for the JSON API. The credentials' problems come back
 * as a result; a body the API cannot read is a thrown 4xx Response.
 */
export async function loginAdmin(strategy: "form" | "json", request: Request, clientIp: string | undefined): Promise<LoginResult> {
  try {
    const admin = await loginNetwork.run({ clientIp }, () => authenticator.authenticate(strategy, request));
    return { ok: true, admin };
  } catch (error) {
    if (error instanceof InvalidLogin) return { ok: false, status: 400, errors: error.errors };
    if (error instanceof Refusal && ANSWERED.has(error.status)) {
      const refused = { ok: false as const, status: error.status as 401 | 429 | 503, errors: { form: [error.message] } };
      return error.retryAfterSeconds ? { ...refused, retryAfterSeconds: error.retryAfterSeconds } : refused;
    }
    throw error;
  }
}
