/** The HTML validation attributes conform derives from a zod schema (getZodConstraint). */
export interface Constraint {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  pattern?: string;
  multiple?: boolean;
}

/** The two things a control needs from conform's per-render field state. */
interface FieldState {
  errors?: string[];
  initialValue?: unknown;
}

export type ControlType = "text" | "email" | "tel" | "url" | "password" | "number" | "datetime-local" | "time" | "checkbox" | "textarea";

/** What getInputProps / getTextareaProps return: the constraint's attributes and these. */
interface ControlProps extends Constraint {
  id: string;
  name: string;
  form: string;
  type?: string;
  value?: string;
  defaultValue?: string;
  defaultChecked?: boolean;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
}

const INPUT_CONSTRAINTS = ["minLength", "maxLength", "min", "max", "step", "pattern", "multiple"] as const;
const TEXTAREA_CONSTRAINTS = ["minLength", "maxLength"] as const;

/**
 * The attributes conform's getInputProps / getTextareaProps give a field of
 * the form `formId`, from the form's constraint and the field's errors and
 * initial value, each read once. conform builds a new metadata proxy on every
 * property read and getInputProps makes about fifteen reads a field: on the
 * guest book that was most of the page's server render time (bench/pages.mjs).
 */
export function formControl(formId: string, constraint: Record<string, Constraint>, name: string, field: FieldState, type: ControlType) {
  const errors = field.errors;
  const initialValue = field.initialValue;
  const id = `${formId}-${name}`;
  const errorId = `${id}-error`;
  const rules = constraint[name] ?? {};
  const props: ControlProps = rules.required ? { required: true, id, name, form: formId } : { id, name, form: formId };
  if (errors) {
    props["aria-invalid"] = true;
    props["aria-describedby"] = errorId;
  }
  if (type !== "textarea") props.type = type;
  for (const rule of type === "textarea" ? TEXTAREA_CONSTRAINTS : INPUT_CONSTRAINTS) {
    if (rules[rule] !== undefined) (props as unknown as Record<string, unknown>)[rule] = rules[rule];
  }
  if (type === "checkbox") {
    props.value = "on";
    props.defaultChecked = initialValue === "on";
  } else if (typeof initialValue === "string") {
    props.defaultValue = initialValue;
  }
  return { errors, errorId, props };
}

/** formControl for the fields of one form: `const control = formControls("rsvp", constraint, fields)`, then `control("name", "text")`. */
export function formControls<Name extends string>(
  formId: string,
  constraint: Record<string, Constraint>,
  fields: Record<Name, FieldState>,
) {
  return (name: Name, type: ControlType) => formControl(formId, constraint, name, fields[name], type);
}
