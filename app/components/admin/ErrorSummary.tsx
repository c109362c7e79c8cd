import { useEffect, useRef } from "react";
import * as s from "./admin.css";

type FieldProblem = { label: string; target: string; messages: string[] };

/**
 * What a refused save got wrong, at the top of its form: each field's
 * message is a link that takes the eye (and the cursor) to the field, the
 * way public-service forms do it. With JavaScript it takes the focus when it
 * appears; without, the page opens at its section.
 */
export function ErrorSummary({ title, formErrors, fieldErrors }: { title: string; formErrors?: string[]; fieldErrors: FieldProblem[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const text = [...(formErrors ?? []), ...fieldErrors.flatMap((field) => field.messages)].join("\n");
  const shown = useRef(text);
  useEffect(() => {
    const previous = shown.current;
    shown.current = text;
    if (!text || text === previous) return;
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: "start" });
  }, [text]);
  if (!text) return null;
  return (
    <div role="alert" tabIndex={-1} ref={ref} className={s.errorSummary}>
      <p className={s.errorSummaryTitle}>{title}</p>
      <ul className={s.errorSummaryList}>
        {formErrors?.map((message) => (
          <li key={message}>{message}</li>
        ))}
        {fieldErrors.flatMap(({ label, target, messages }) =>
          messages.map((message) => (
            <li key={`${target}-${message}`}>
              <a href={`#${target}`}>{message.startsWith(label) ? message : `${label}: ${message}`}</a>
            </li>
          )),
        )}
      </ul>
    </div>
  );
}
