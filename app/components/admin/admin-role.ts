import { useRouteLoaderData } from "@remix-run/react";
import type { Role } from "~/admins/roles";

/**
 * The role of the admin looking at the panel, as the panel's layout loaded
 * it: the words of a page follow it (a helper's "Set aside" where the family
 * reads "Delete"). What she may do is decided on the server, never here.
 */
export function useAdminRole(): Role {
  return useRouteLoaderData<{ admin?: { role?: Role } }>("routes/admin")?.admin?.role ?? "family";
}
