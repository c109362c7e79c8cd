import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import * as ui from "~/styles/ui.css";
import type { ConfirmRequest } from "~/utils/moderation";
import * as s from "./admin.css";

/**
 * The id of the question's title about item `id`: the first press's form
 * sends the browser to it (`action#…`), so without JavaScript the answer
 * opens scrolled to the question, however far down the page the item was.
 */
export const confirmAnchor = (id: number | string) => `confirm-${id}-title`;

/**
 * The second step: a plain form with the same intent and `confirmed=yes`,
 * and a way back. It is the server's answer to the first press, so it works
 * without JavaScript; with it, it appears in place and takes focus.
 */
export function ConfirmStep({
  confirm,
  action,
  cancelTo,
}: {
  confirm: ConfirmRequest | null | undefined;
  action: string;
  cancelTo: string;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!confirm) return;
    const dialog = ref.current;
    if (!dialog) return;
    dialog.focus({ preventScroll: true });
    // Near the top of its page (the page came in scrolled from where the button was): the page's top, the tabs
    // whole; further down, the middle of the screen.
    if (dialog.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight) window.scrollTo(0, 0);
    else dialog.scrollIntoView({ block: "center" });
  }, [confirm]);
  if (!confirm) return null;
  const titleId = confirmAnchor(confirm.id);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={`${titleId}-text`}
      className={s.confirm}
    >
      <h2 id={titleId} className={s.sectionTitle}>
        {confirm.title}
      </h2>
      <p id={`${titleId}-text`}>{confirm.text}</p>
      <Form method="post" action={action} className={s.actions} preventScrollReset>
        <input type="hidden" name="id" value={confirm.id} />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" name="intent" value={confirm.intent} className={ui.button.danger}>
          {confirm.confirmLabel}
        </button>
        <Link to={cancelTo} className={ui.button.secondary} preventScrollReset>
          Cancel
        </Link>
      </Form>
    </section>
  );
}
