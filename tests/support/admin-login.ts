import { loginAdmin } from "~/admins/authenticator.server";

/** A login through POST /api/admin/login's strategy, from `clientIp`. */
export const loginThroughApi = (credentials: Record<string, unknown>, clientIp: string) =>
  loginAdmin(
    "json",
    new Request("http://localhost/api/admin/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(credentials),
    }),
    clientIp,
  );
