import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { formControl, type Constraint, type ControlType } from "~/utils/form-control";

/** A form action's answer to a refused submission: conform's reply (SubmissionResult), as the server's parser writes it. */
export interface FormReply {
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
}

/** A default value as a form sends it: a ticked box is "on", a number its digits. */
function asFormValue(value: unknown): unknown {
  if (value === true) return "on";
  if (value === false || value === null) return undefined;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return value;
}

/**
 * A public form checked by the server alone, so the page loads no zod or
 * conform (docs/decisions/017). It must give exactly the attributes
 * useZodForm gives, so the form reads the same either way (a test compares them).
 */
export function useServerForm<Name extends string>(
  id: string,
  constraint: Record<string, Constraint>,
  options: {
    lastResult?: FormReply | null;
    defaultValue?: Partial<Record<Name, unknown>>;
    /** False when the form's summary of refused fields takes the focus instead. */
    focusFirstRefused?: boolean;
  } = {},
) {
  const navigation = useNavigation();
  const reply = navigation.state === "idle" ? (options.lastResult ?? undefined) : undefined;
  const values = reply?.initialValue ?? options.defaultValue ?? {};
  const errors = reply?.error ?? {};
  const formErrors = errors[""] ?? undefined;
  const formErrorId = `${id}-error`;

  // Focus the first field the server refused, once per answer (a form-level message focuses itself: FormAlert).
  const focused = useRef<FormReply | undefined>(undefined);
  const focusFirstRefused = options.focusFirstRefused ?? true;
  useEffect(() => {
    if (!focusFirstRefused || !reply || focused.current === reply || formErrors) return;
    focused.current = reply;
    const first = document.getElementById(id)?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus();
  }, [id, reply, formErrors, focusFirstRefused]);

  return {
    /** The form element's attributes: the server checks every submission, with or without JavaScript. */
    formProps: {
      id,
      noValidate: true,
      ...(formErrors ? { "aria-describedby": formErrorId } : {}),
    },
    /** Messages about the whole submission (a refusal's reason). */
    formErrors,
    control: (name: Name, type: ControlType) =>
      formControl(
        id,
        constraint,
        name,
        { errors: errors[name] ?? undefined, initialValue: asFormValue(values[name as keyof typeof values]) },
        type,
      ),
  };
}
