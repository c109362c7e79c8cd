import { UNSAFE_RemixContext, useRouteLoaderData } from "@remix-run/react";
import { useContext, useEffect, useRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import * as s from "./forms.css";
import { useT } from "./useT";

type Errors = string[] | undefined;

// Written without ?. and ??, which the build spells out for Safari 12 at twice the length: the
// guest book loads this module and is at its JavaScript budget (docs/decisions/017).

/**
 * The page's error words; none in a section rendered to HTML on its own (the
 * candles' form), whose loader gives its messages already translated.
 */
function useErrorWords(): (english: string) => string {
  // The same answer for the whole of a render: a page has Remix's context, such a section never does.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  return useContext(UNSAFE_RemixContext) ? useT().tError : (english) => english;
}

/** A field's messages: a schema's English words (the browser's check or the server's reply), in the page's language. */
export function ErrorList({ id, errors }: { id?: string; errors: Errors }) {
  const tError = useErrorWords();
  if (!errors || !errors.length) return null;
  return (
    <ul id={id} className={s.errors}>
      {errors.map((error) => (
        <li key={error}>{tError(error)}</li>
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
  const { t } = useT();
  if (root?.textBrowser) return null;
  return (
    <div className={s.honeypot} aria-hidden="true">
      <label htmlFor={`hp-${name}`}>{t("forms.honeypot")}</label>
      <input id={`hp-${name}`} type="text" name={name} tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** A refused field, for the summary at the top of a form: its input's id and its name (its message stays beside it). */
export interface FieldProblem {
  id: string;
  label: string;
}

/**
 * The box at the top of a form after a refused submission. With `fields`, it
 * first names each refused field with a link to it, so a visitor who only
 * reads the top of the page knows what to change. When it appears on a page
 * already open (an answer with JavaScript) focus moves to it and it scrolls
 * into view; a page loaded with a summary in it (without JavaScript) focuses
 * it by `autofocus`.
 */
export function FormAlert({ title, messages, fields }: { title: string; messages: Errors; fields?: FieldProblem[] }) {
  const { t, tError } = useT();
  const ref = useRef<HTMLDivElement>(null);
  const named = fields && fields.length ? fields : null;
  const said = messages && messages.length ? messages : null;
  const text = (named || [])
    .map((field) => field.id)
    .concat(said || [])
    .join("\n");
  const shown = useRef(text);
  useEffect(() => {
    const previous = shown.current;
    const box = ref.current;
    shown.current = text;
    if (!text || text === previous || !box) return;
    box.focus({ preventScroll: true });
    box.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [text]);
  if (!said && !named) return null;
  return (
    // Without JavaScript, only `autofocus` brings a visitor who sent the form to what must change.
    // eslint-disable-next-line jsx-a11y/no-autofocus -- it is the answer to the visitor's own submission
    <div role="alert" tabIndex={-1} ref={ref} className={s.alert} autoFocus={named ? true : undefined}>
      {named ? (
        <>
          <p className={s.alertTitle}>{t("forms.pleaseCheck")}</p>
          <ul className={s.alertList}>
            {named.map((field) => (
              <li key={field.id}>
                <a href={`#${field.id}`} className={s.alertLink}>
                  {field.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {said ? (
        <>
          <p className={s.alertTitle}>{title}</p>
          {said.map((message) => (
            <p key={message} className={s.alertMessage}>
              {tError(message)}
            </p>
          ))}
        </>
      ) : null}
    </div>
  );
}

/** The form-level message of a server's answer (conform's reply), e.g. a refusal's reason. */
export function formLevelError(result: { error?: Record<string, string[] | null> } | undefined): string | undefined {
  const messages = result && result.error && result.error[""];
  return (messages && messages[0]) || undefined;
}
