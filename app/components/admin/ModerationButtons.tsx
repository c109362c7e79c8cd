import { Form } from "@remix-run/react";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";
import { confirmAnchor } from "./ConfirmStep";

/**
 * The admin's decision about one pending memory or upload: a plain form with
 * one intent per button (approve, reject), so it works without JavaScript.
 * Rejecting asks first (the server answers with ConfirmStep). An upload that
 * could not be processed can only be rejected (`canApprove={false}`).
 */
export function ModerationButtons({
  id,
  action,
  labels,
  canApprove = true,
}: {
  id: number;
  action: string;
  labels: { approve: string; reject: string };
  canApprove?: boolean;
}) {
  return (
    <Form method="post" action={action} className={s.actions} preventScrollReset>
      <input type="hidden" name="id" value={id} />
      {canApprove ? (
        <button type="submit" name="intent" value="approve" className={ui.button.primary}>
          {labels.approve}
        </button>
      ) : null}
      {/* Its answer is a question (ConfirmStep): the page opens at it. */}
      <button type="submit" name="intent" value="reject" formAction={`${action}#${confirmAnchor(id)}`} className={ui.button.danger}>
        {labels.reject}
      </button>
    </Form>
  );
}
