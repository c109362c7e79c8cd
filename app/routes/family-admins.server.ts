import { takeFromSession } from "~/admins/session.server";
import type { Admin } from "~/admins/admin.server";
import { listAdmins } from "~/admins/admin.server";
import type { FamilyAdminsData, InvitationLink } from "~/admins/admin.schema";

/** The session key under which a new invitation link waits to be shown, once. */
export const INVITATION_FLASH = "invitationLink";

/**
 * What the Family admins section needs (app/components/admin/FamilyAdmins.tsx),
 * for the loader of any page that shows it: the admins, who is looking, and
 * the invitation link this admin just made (shown on this page only, then
 * gone).
 */
export async function loadFamilyAdmins(request: Request, admin: Admin): Promise<FamilyAdminsData> {
  return {
    admins: listAdmins(),
    me: { id: admin.id, username: admin.username, role: admin.role },
    invitation: await takeFromSession<InvitationLink>(request, INVITATION_FLASH),
  };
}
