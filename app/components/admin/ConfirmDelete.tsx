import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { AdminDialog } from "~/components/AdminDialog";
import * as d from "~/components/AdminDialog.css";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";

const BUSY = { Delete: "Deleting", Remove: "Removing", "Set aside": "Setting aside" } as const;

/**
 * "Delete this …? [Delete] [Cancel]": the question before something that
 * cannot be undone, as a route of its own (docs/decisions/006): a page
 * without JavaScript, a dialog with it. Its form posts to its own address
 * with intent=delete; Cancel is a link back.
 */
export function ConfirmDelete({
  title,
  closeTo,
  picture,
  label = "Delete",
  children,
}: {
  title: string;
  closeTo: string;
  picture?: string | null;
  /** The button's word: "Delete", "Remove" for a person, or "Set aside" for a helper's delete (the family can undo it). */
  label?: "Delete" | "Remove" | "Set aside";
  children: ReactNode;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const action = `${location.pathname}${location.search}`;
  const deleting = navigation.state === "submitting" && navigation.formAction === action;
  return (
    <AdminDialog title={title} closeTo={closeTo} alert describedBy="confirm-delete-text">
      {picture ? <img src={picture} alt="" className={s.confirmPicture} /> : null}
      <p id="confirm-delete-text">{children}</p>
      <Form method="post" action={action} className={d.buttons} preventScrollReset>
        <button type="submit" name="intent" value="delete" className={ui.button.danger} disabled={deleting}>
          {deleting ? `${BUSY[label]}...` : label}
        </button>
        <Link to={closeTo} className={ui.button.secondary} preventScrollReset>
          Cancel
        </Link>
      </Form>
    </AdminDialog>
  );
}
