import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FormAlert } from "~/components/forms";
import { ControlField, RadioGroupField, UsernameField } from "~/components/admin/form-fields";
import { useZodForm } from "~/components/useZodForm";
import { NewAdminSchema, type AdminSummary, type FamilyAdminsData, type InvitationLink } from "~/admins/admin.schema";
import { ROLE_HINTS, ROLE_LABELS, type Role } from "~/admins/roles";
import * as ui from "~/styles/ui.css";
import type { ConfirmRequest } from "~/utils/moderation";
import { useSite } from "~/site/site-view";
import { formatDateTime } from "~/utils/time";
import * as s from "./admin.css";
import { InvitationAddressWarning } from "./AddressWarning";
import { ChangePasswordForm } from "./ChangePasswordForm";
import { ConfirmStep } from "./ConfirmStep";
import { useSendingIntent, useToastId } from "./form-state";
import * as f from "./FamilyAdmins.css";

/** Where every form of the section posts (app/routes/admin.admins.tsx). */
const FAMILY_ADMINS_ACTION = "/admin/admins";
export const FAMILY_ADMINS_ANCHOR = "family-admins";

/** What the action answered when it did not redirect: a form sent back with its messages, or the question before removing yourself. */
export type FamilyAdminsAnswer =
  { form: "add-admin" | "change-password"; result: SubmissionResult<string[]> } | { confirm: ConfirmRequest };

/**
 * The Family admins section of the Site tab: who can log in and as what
 * (family or helper), adding someone (with a password, or an invitation link
 * they open to choose their own), changing someone's role, removing someone,
 * and changing your own password. Every action is a plain
 * form posting to /admin/admins, which comes back to `returnTo` with a
 * toast, so it all works without JavaScript.
 */
export function FamilyAdmins({
  admins,
  me,
  invitation,
  answer,
  returnTo = `/admin/site#${FAMILY_ADMINS_ANCHOR}`,
}: FamilyAdminsData & {
  /** The action's answer, on the page that rendered it (/admin/admins). */
  answer?: FamilyAdminsAnswer | null;
  /** Where the forms come back to after a change. */
  returnTo?: string;
}) {
  const { timeZone } = useSite();
  const navigation = useNavigation();
  const confirm = answer && "confirm" in answer ? answer.confirm : null;
  const resultFor = (form: string) => (answer && "form" in answer && answer.form === form ? answer.result : undefined);
  const removing = (id: number) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === "remove" && navigation.formData.get("id") === String(id);
  const only = admins.length <= 1;
  return (
    <section id={FAMILY_ADMINS_ANCHOR} aria-labelledby="family-admins-title" className={f.section}>
      <h2 id="family-admins-title" className={s.sectionTitle}>
        Family admins
      </h2>
      <p className={f.intro}>
        Everyone listed here can log in to this panel. Family can do everything; a helper only moderates what visitors share, and never sees
        contact details or deletes anything for good.
      </p>
      {/* Without its #anchor: a link differing from the page's address only there would not load the page again (no JavaScript). */}
      <ConfirmStep confirm={confirm} action={FAMILY_ADMINS_ACTION} cancelTo={returnTo.split("#")[0]!} />
      {invitation ? <InvitationBox invitation={invitation} timeZone={timeZone} /> : null}
      <div className={s.tableWrap}>
        <table className={s.table}>
          <caption className={ui.visuallyHidden}>Family admins</caption>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Role</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className={ui.visuallyHidden}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {admins.map((admin) => (
              <tr key={admin.id}>
                <td data-label="Username">
                  {admin.username}
                  {admin.id === me.id ? " (you)" : null}
                </td>
                <td data-label="Role">{ROLE_LABELS[admin.role]}</td>
                <td data-label="Added">{formatDateTime(admin.createdAt, timeZone)}</td>
                <td>
                  {admin.id === me.id ? null : <RoleButton admin={admin} returnTo={returnTo} />}
                  {only ? null : (
                    <Form method="post" action={FAMILY_ADMINS_ACTION} preventScrollReset className={f.rowForm}>
                      <input type="hidden" name="id" value={admin.id} />
                      <input type="hidden" name="returnTo" value={returnTo} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        className={ui.button.danger}
                        aria-label={admin.id === me.id ? "Remove yourself" : `Remove ${admin.username}`}
                        disabled={removing(admin.id)}
                      >
                        Remove
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {only ? <p className={f.intro}>The memorial always needs at least one admin: add another before you can remove this one.</p> : null}
      <div className={f.forms}>
        <AddAdminForm lastResult={resultFor("add-admin")} returnTo={returnTo} />
        <InviteForm returnTo={returnTo} />
        <ChangePasswordForm
          action={FAMILY_ADMINS_ACTION}
          username={me.username}
          lastResult={resultFor("change-password")}
          returnTo={returnTo}
        />
      </div>
    </section>
  );
}

/**
 * The new invitation link, shown once: the whole link as text that wraps and
 * can be selected (no JavaScript needed), a Copy button and, where the device
 * has one (phones), a Share button opening its share sheet.
 */
function InvitationBox({ invitation, timeZone }: { invitation: InvitationLink; timeZone: string }) {
  const [enhanced, setEnhanced] = useState(false);
  const [canShare, setCanShare] = useState(false);
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const linkRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    setEnhanced(true);
    setCanShare(typeof navigator.share === "function");
  }, []);
  const selectLink = () => {
    const node = linkRef.current;
    const selection = window.getSelection();
    if (!node || !selection) return;
    selection.selectAllChildren(node);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invitation.link);
      setCopied("copied");
    } catch {
      // No clipboard (a page not served over HTTPS, or permission refused): the link is selected for a long press or Ctrl+C.
      selectLink();
      setCopied("failed");
    }
  };
  const share = async () => {
    try {
      await navigator.share({ title: "Invitation to the memorial's admin panel", url: invitation.link });
    } catch {
      // Closed without sharing: nothing to say.
    }
  };
  return (
    <div className={f.invitation} aria-labelledby="invitation-link-title" role="group">
      <p className={f.intro}>
        <strong id="invitation-link-title">Your invitation link</strong> (for {invitation.role === "helper" ? "a helper" : "family"}) is
        shown only this once: copy it now and send it to the person. It works once, until {formatDateTime(invitation.expiresAt, timeZone)}.
      </p>
      <p ref={linkRef} id="invitation-link" className={f.linkText}>
        {invitation.link}
      </p>
      <InvitationAddressWarning link={invitation.link} />
      {enhanced ? (
        <div className={f.linkActions}>
          <button type="button" className={ui.button.primary} onClick={() => void copy()}>
            Copy Link
          </button>
          {canShare ? (
            <button type="button" className={ui.button.secondary} onClick={() => void share()}>
              Share Link
            </button>
          ) : null}
        </div>
      ) : null}
      <p role="status" className={f.intro}>
        {copied === "copied"
          ? "Copied. Paste it into a message or an e-mail to the person."
          : copied === "failed"
            ? "This browser would not copy it: the link is selected, copy it from there."
            : null}
      </p>
    </div>
  );
}

/** "Make helper" or "Make family": one button, a plain form. */
function RoleButton({ admin, returnTo }: { admin: AdminSummary; returnTo: string }) {
  const navigation = useNavigation();
  const other: Role = admin.role === "family" ? "helper" : "family";
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "set-role" &&
    navigation.formData.get("id") === String(admin.id);
  return (
    <Form method="post" action={FAMILY_ADMINS_ACTION} preventScrollReset className={f.rowForm}>
      <input type="hidden" name="id" value={admin.id} />
      <input type="hidden" name="role" value={other} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        name="intent"
        value="set-role"
        className={ui.button.secondary}
        aria-label={`Make ${admin.username} ${other === "helper" ? "a helper" : "family"}`}
        disabled={busy}
      >
        {other === "helper" ? "Make Helper" : "Make Family"}
      </button>
    </Form>
  );
}

/** Family or helper, for a new admin or an invitation; family is chosen until changed, as every admin was before helpers. */
function RoleChoice({ form, errors }: { form: string; errors?: string[] }) {
  return (
    <RadioGroupField
      legend="Role"
      name="role"
      form={form}
      defaultValue="family"
      errors={errors}
      errorId={`${form}-role-error`}
      options={(["family", "helper"] as const).map((role) => ({ value: role, label: ROLE_LABELS[role], description: ROLE_HINTS[role] }))}
    />
  );
}

function AddAdminForm({ lastResult, returnTo }: { lastResult?: SubmissionResult<string[]>; returnTo: string }) {
  return <AddAdminFields key={useToastId()} lastResult={lastResult} returnTo={returnTo} />;
}

function AddAdminFields({ lastResult, returnTo }: { lastResult?: SubmissionResult<string[]>; returnTo: string }) {
  const sending = useSendingIntent(FAMILY_ADMINS_ACTION) === "add";
  const { form, fields, control } = useZodForm("add-admin", NewAdminSchema, { lastResult });
  const [username, password] = [control("username", "text"), control("password", "password")];
  return (
    <Form
      method="post"
      action={FAMILY_ADMINS_ACTION}
      {...getFormProps(form)}
      aria-labelledby="add-admin-title"
      className={s.form}
      preventScrollReset
    >
      <h3 id="add-admin-title" className={s.sectionTitle}>
        Add an admin
      </h3>
      <FormAlert title="Not added" messages={form.errors} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <UsernameField control={username} autoComplete="off" />
      <ControlField
        label="Password"
        hint="At least 8 characters. Tell it to them yourself; they can change it once logged in."
        control={password}
        autoComplete="new-password"
      />
      <RoleChoice form={form.id} errors={fields.role.errors} />
      <button type="submit" name="intent" value="add" className={ui.button.primary} disabled={sending}>
        {sending ? "Adding..." : "Add Admin"}
      </button>
    </Form>
  );
}

function InviteForm({ returnTo }: { returnTo: string }) {
  const sending = useSendingIntent(FAMILY_ADMINS_ACTION) === "invite";
  return (
    <Form method="post" action={FAMILY_ADMINS_ACTION} id="invite" aria-labelledby="invite-title" className={s.form} preventScrollReset>
      <h3 id="invite-title" className={s.sectionTitle}>
        Invite someone
      </h3>
      <p className={f.intro}>
        Make a link to send by message or e-mail: whoever opens it chooses their own username and password. It works once, within 7 days.
        Family you invite can do everything you can, including removing other family admins, you among them; a helper only moderates.
      </p>
      <input type="hidden" name="returnTo" value={returnTo} />
      <RoleChoice form="invite" />
      <p>
        <button type="submit" name="intent" value="invite" className={ui.button.primary} disabled={sending}>
          {sending ? "Creating..." : "Create Invitation Link"}
        </button>
      </p>
    </Form>
  );
}
