// Form fields only the admin panel uses, apart from the public pages' fields
// (components/forms.tsx) so those pages do not load them (docs/decisions/017).
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { ErrorList, Field } from "~/components/forms";
import * as s from "~/components/forms.css";
import type { formControl } from "~/utils/form-control";

type Errors = string[] | undefined;

/** A Field for one of useZodForm's controls: `<ControlField label="Username" control={username} autoComplete="username" />`. */
export function ControlField({
  label,
  hint,
  control,
  autoComplete,
  typing,
}: {
  label: ReactNode;
  hint?: ReactNode;
  control: ReturnType<typeof formControl>;
  autoComplete: string;
  /** How a phone's keyboard treats what is typed. */
  typing?: Pick<InputHTMLAttributes<HTMLInputElement>, "autoCapitalize" | "autoCorrect" | "spellCheck">;
}) {
  return (
    <Field
      label={label}
      hint={hint}
      errors={control.errors}
      errorId={control.errorId}
      inputProps={{ ...control.props, ...typing, autoComplete }}
    />
  );
}

/** A username as typed: a phone must not capitalise its first letter or "correct" it (usernames ignore case anyway). */
const USERNAME_TYPING = { autoCapitalize: "none", autoCorrect: "off", spellCheck: false } as const;

/** The Username field of the login, the first admin's setup, an invitation and Add an admin. */
export function UsernameField({ control, autoComplete }: { control: ReturnType<typeof formControl>; autoComplete: string }) {
  return <ControlField label="Username" control={control} autoComplete={autoComplete} typing={USERNAME_TYPING} />;
}

/** A new admin's username and password, typed twice: the first admin's setup and an invitation. */
export function NewAdminFields({
  control,
}: {
  control: (name: "username" | "password" | "confirmPassword", type: "text" | "password") => ReturnType<typeof formControl>;
}) {
  return (
    <>
      <UsernameField control={control("username", "text")} autoComplete="username" />
      <ControlField label="Password" hint="At least 8 characters." control={control("password", "password")} autoComplete="new-password" />
      <ControlField label="Password again" control={control("confirmPassword", "password")} autoComplete="new-password" />
    </>
  );
}

/** A labelled drop-down list. */
export function SelectField({
  label,
  hint,
  errors,
  errorId,
  selectProps,
  options,
}: {
  label: ReactNode;
  hint?: ReactNode;
  errors: Errors;
  errorId: string;
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { id: string };
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className={s.field}>
      <label htmlFor={selectProps.id} className={s.label}>
        {label}
      </label>
      {hint ? <p className={s.hint}>{hint}</p> : null}
      <select {...selectProps} className={s.input}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** One choice of a few, each with a sentence saying what it means. */
export function RadioGroupField({
  legend,
  name,
  form,
  defaultValue,
  errors,
  errorId,
  options,
}: {
  legend: ReactNode;
  name: string;
  form: string;
  defaultValue: string | undefined;
  errors: Errors;
  errorId: string;
  options: readonly { value: string; label: string; description?: string }[];
}) {
  return (
    <fieldset className={s.fieldset} aria-describedby={errors?.length ? errorId : undefined}>
      <legend className={s.label}>{legend}</legend>
      {options.map((option) => {
        const id = `${form}-${name}-${option.value}`;
        return (
          <div key={option.value} className={s.radioRow}>
            <input
              type="radio"
              id={id}
              name={name}
              form={form}
              value={option.value}
              defaultChecked={defaultValue === option.value}
              required
              className={s.checkbox}
              aria-describedby={option.description ? `${id}-description` : undefined}
            />
            <div>
              <label htmlFor={id} className={s.radioLabel}>
                {option.label}
              </label>
              {option.description ? (
                <p id={`${id}-description`} className={s.hint}>
                  {option.description}
                </p>
              ) : null}
            </div>
          </div>
        );
      })}
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  );
}
