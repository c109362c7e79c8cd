import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import * as s from "./forms.css";

type Errors = string[] | undefined;

export function ErrorList({ id, errors }: { id?: string; errors: Errors }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className={s.errors}>
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

/** A labelled input with its messages below it, linked for screen readers. */
export function Field({
  label,
  hint,
  errors,
  errorId,
  inputProps,
}: {
  label: ReactNode;
  hint?: ReactNode;
  errors: Errors;
  errorId: string;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
}) {
  return (
    <div className={s.field}>
      <label htmlFor={inputProps.id} className={s.label}>
        {label}
      </label>
      {hint ? <p className={s.hint}>{hint}</p> : null}
      <input {...inputProps} className={s.input} />
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function TextareaField({
  label,
  hint,
  errors,
  errorId,
  textareaProps,
}: {
  label: ReactNode;
  hint?: ReactNode;
  errors: Errors;
  errorId: string;
  textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & { id: string };
}) {
  return (
    <div className={s.field}>
      <label htmlFor={textareaProps.id} className={s.label}>
        {label}
      </label>
      {hint ? <p className={s.hint}>{hint}</p> : null}
      <textarea rows={6} {...textareaProps} className={s.textarea} />
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function CheckboxField({
  label,
  errors,
  errorId,
  inputProps,
}: {
  label: ReactNode;
  errors: Errors;
  errorId: string;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string };
}) {
  return (
    <div className={s.field}>
      <div className={s.checkboxRow}>
        <input {...inputProps} type="checkbox" className={s.checkbox} />
        <label htmlFor={inputProps.id}>{label}</label>
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A field bots fill in and people never see; a filled one marks the submission as spam. (Not drawn for text browsers, which show every field.) */
export function Honeypot({ name = "website" }: { name?: string }) {
  const root = useRouteLoaderData<{ textBrowser?: boolean }>("root");
  if (root?.textBrowser) return null;
  return (
    <div className={s.honeypot} aria-hidden="true">
      <label htmlFor={`hp-${name}`}>Leave this field empty</label>
      <input id={`hp-${name}`} type="text" name={name} tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/**
 * A form-level message such as "Failed to submit memory. Please try again."
 * or a refusal's reason. When it appears on a page already open (an answer
 * to a submission with JavaScript), focus moves to it and it scrolls into
 * view, so the visitor sees why nothing happened; without JavaScript the
 * page loads with it above the form.
 */
export function FormAlert({ title, messages }: { title: string; messages: Errors }) {
  const ref = useRef<HTMLDivElement>(null);
  const text = messages?.join("\n") ?? "";
  const shown = useRef(text);
  useEffect(() => {
    const previous = shown.current;
    shown.current = text;
    if (!text || text === previous) return;
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [text]);
  if (!messages?.length) return null;
  return (
    <div role="alert" tabIndex={-1} ref={ref} className={s.alert}>
      <p className={s.alertTitle}>{title}</p>
      {messages.map((message) => (
        <p key={message} className={s.alertMessage}>
          {message}
        </p>
      ))}
    </div>
  );
}

/** The form-level message of a server's answer (conform's reply), e.g. a refusal's reason. */
export function formLevelError(result: { error?: Record<string, string[] | null> } | undefined): string | undefined {
  return result?.error?.[""]?.[0] ?? undefined;
}
