import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { AdminActor } from "~/platform/actor.server";
import { endAdminSession, flashInSession, requireFamily } from "~/admins/session.server";
import { FAMILY_ADMINS_ANCHOR, FamilyAdmins, type FamilyAdminsAnswer } from "~/components/admin/FamilyAdmins";
import {
  ADMIN_ADDED,
  ADMIN_REMOVED,
  INVITATION_CREATED,
  InvitationSchema,
  NewAdminSchema,
  NO_SUCH_ADMIN,
  NOT_REMOVED,
  ROLE_CHANGED_TOAST,
  RoleChangeSchema,
  SELF_REMOVED,
  type InvitationLink,
} from "~/admins/admin.schema";
import { createAdmin, removeAdmin, setAdminRole, type Admin } from "~/admins/admin.server";
import { createInvitation } from "~/admins/invitation.server";
import { sitePublicAddress } from "~/site/settings.server";
import { INVITATION_FLASH, loadFamilyAdmins } from "~/routes/family-admins.server";
import { invariantResponse, loaderCacheControl, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { idParam } from "~/utils/moderation";
import { asRefusal, failureToast } from "~/platform/refusal.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { redirectWithToast } from "~/platform/toast.server";
import { changePasswordForm, refusedForm } from "~/routes/password-change.server";

// /admin/admins: the Family admins section's forms post here (intent: add,
// invite, remove, set-role, change-password) and come back to the page they
// were sent from (`returnTo`, the Site tab by default) with a toast. As a
// page of its own it shows the same section, and a form sent back with its
// messages. The family's alone: a helper changes her password at /admin/account.

const DEFAULT_RETURN = `/admin/site#${FAMILY_ADMINS_ANCHOR}`;
const ROLE_NOT_CHANGED = { title: "Role Not Changed", type: "destructive" as const };
const INVITATION_FAILED = { title: "Error", description: "The invitation link could not be made.", type: "destructive" as const };

/** Only places inside the admin panel. */
function returnToOf(form: FormData) {
  const target = safeRedirect(form.get("returnTo"), DEFAULT_RETURN);
  return /^\/admin(?:[/?#]|$)/.test(target) ? target : DEFAULT_RETURN;
}

export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireFamily(request);
  return json({ familyAdmins: await loadFamilyAdmins(request, admin) }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireFamily(request);
  const form = await readFormData(request);
  const returnTo = returnToOf(form);
  const intent = form.get("intent");
  switch (intent) {
    case "add":
      return addAdmin(admin, form, returnTo);
    case "invite":
      return invite(request, admin, form, returnTo);
    case "set-role":
      return changeRole(admin, form, returnTo);
    case "remove":
      return remove(request, admin, form, returnTo);
    case "change-password":
      return changePasswordForm(admin, form, returnTo, context.clientIp);
    default:
      invariantResponse(false, "This form does not know what to do. Please go back, reload the page and try again.", { status: 400 });
  }
}

async function addAdmin(admin: AdminActor, form: FormData, returnTo: string) {
  const submission = parseWithZod(form, { schema: NewAdminSchema });
  if (submission.status !== "success") {
    return json({ form: "add-admin", result: submission.reply({ hideFields: ["password"] }) } as FamilyAdminsAnswer, { status: 400 });
  }
  try {
    const added = await createAdmin(submission.value, admin);
    return redirectWithToast(returnTo, ADMIN_ADDED(added.username, added.role));
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return refusedForm("add-admin", submission, refusal, ["username", "password"], ["password"]);
  }
}

async function invite(request: Request, admin: AdminActor, form: FormData, returnTo: string) {
  const chosen = InvitationSchema.safeParse({ role: form.get("role") ?? undefined });
  invariantResponse(chosen.success, "Please choose whether the person will be family or a helper.", { status: 400 });
  const { role } = chosen.data;
  try {
    const { token, expiresAt } = createInvitation(admin, Date.now(), role);
    const invitation: InvitationLink = {
      link: `${sitePublicAddress(request)}/admin/invite/${token}`,
      expiresAt: expiresAt.toISOString(),
      role,
    };
    await flashInSession(request, INVITATION_FLASH, invitation);
    return redirectWithToast(returnTo, INVITATION_CREATED);
  } catch (error) {
    return redirectWithToast(returnTo, failureToast(INVITATION_FAILED, error));
  }
}

async function remove(request: Request, admin: AdminActor, form: FormData, returnTo: string) {
  const id = idParam(String(form.get("id") ?? ""));
  if (id === admin.id && form.get("confirmed") !== "yes") {
    const question: FamilyAdminsAnswer = {
      confirm: {
        id,
        intent: "remove",
        title: "Remove yourself as an admin?",
        text: "You will be logged out at once and cannot log in again unless another admin adds you back.",
        confirmLabel: "Yes, remove me",
      },
    };
    return json(question);
  }
  let removed: Admin | undefined;
  try {
    removed = id ? removeAdmin(id, admin) : undefined;
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return redirectWithToast(returnTo, { ...NOT_REMOVED, description: refusal.message });
  }
  if (!removed) return redirectWithToast(returnTo, { ...NOT_REMOVED, description: `${NO_SUCH_ADMIN}: it may have been removed already.` });
  if (removed.id === admin.id) {
    return redirectWithToast("/admin/login", SELF_REMOVED, { headers: { "Set-Cookie": await endAdminSession(request) } });
  }
  return redirectWithToast(returnTo, ADMIN_REMOVED(removed.username));
}

async function changeRole(admin: AdminActor, form: FormData, returnTo: string) {
  const id = idParam(String(form.get("id") ?? ""));
  const chosen = RoleChangeSchema.safeParse({ role: form.get("role") });
  invariantResponse(chosen.success, "Please choose whether the person will be family or a helper.", { status: 400 });
  try {
    const changed = id ? setAdminRole(id, chosen.data.role, admin) : undefined;
    if (!changed) return redirectWithToast(returnTo, { ...ROLE_NOT_CHANGED, description: `${NO_SUCH_ADMIN}: it may have been removed.` });
    // Making yourself a helper: the family's pages are closed to you from now on.
    return redirectWithToast(changed.id === admin.id ? "/admin" : returnTo, ROLE_CHANGED_TOAST(changed.username, changed.role));
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return redirectWithToast(returnTo, { ...ROLE_NOT_CHANGED, description: refusal.message });
  }
}

export default function FamilyAdminsPage() {
  const { familyAdmins } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as FamilyAdminsAnswer | undefined;
  return <FamilyAdmins {...familyAdmins} answer={answer} returnTo={`/admin/admins#${FAMILY_ADMINS_ANCHOR}`} />;
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Family admins", description: "Who can log in to the memorial's admin panel.", path: "/admin/admins" });
