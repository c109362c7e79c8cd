import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import * as s from "./AdminDialog.css";

/** The id of a detail view's title: a link may end in `#` and it, to open the page scrolled to the view (without JavaScript). */
export const DIALOG_TITLE_ID = "admin-dialog-title";

/**
 * A detail view that is a route of its own: without JavaScript it is a card
 * at the top of the page, with it a modal over the list (Escape or Close
 * returns to the list). `alert` makes it a question before something that
 * cannot be undone (an alertdialog, both ways), described by `describedBy`.
 */
export function AdminDialog({
  title,
  closeTo,
  children,
  alert = false,
  describedBy,
}: {
  title: string;
  closeTo: string;
  children: ReactNode;
  alert?: boolean;
  describedBy?: string;
}) {
  const navigate = useNavigate();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Only a modal once scripts run: without them it is a plain section of the page.
  const [modal, setModal] = useState(false);
  useEffect(() => {
    setModal(true);
    headingRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeTo, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [closeTo, navigate]);
  return (
    <div className={s.backdrop}>
      <section
        role={alert ? "alertdialog" : modal ? "dialog" : "region"}
        aria-modal={modal ? true : undefined}
        aria-labelledby={DIALOG_TITLE_ID}
        aria-describedby={describedBy}
        className={s.dialog}
      >
        <div className={s.header}>
          <h2 id={DIALOG_TITLE_ID} ref={headingRef} tabIndex={-1} className={s.title}>
            {title}
          </h2>
          <a
            href={closeTo}
            className={s.close}
            onClick={(event) => (event.preventDefault(), navigate(closeTo, { preventScrollReset: true }))}
          >
            Close
          </a>
        </div>
        {children}
      </section>
    </div>
  );
}
