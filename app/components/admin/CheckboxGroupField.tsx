import type { ReactNode } from "react";
import { ErrorList } from "~/components/forms";
import * as s from "~/components/forms.css";

/** Several choices of a list under one name (a plain form sends each one ticked), e.g. the site's languages. */
export function CheckboxGroupField({
  legend,
  hint,
  name,
  form,
  checked,
  errors,
  errorId,
  options,
}: {
  legend: ReactNode;
  hint?: ReactNode;
  name: string;
  form: string;
  checked: readonly string[];
  errors: string[] | undefined;
  errorId: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <fieldset className={s.fieldset} aria-describedby={errors?.length ? errorId : undefined}>
      <legend className={s.label}>{legend}</legend>
      {hint ? <p className={s.hint}>{hint}</p> : null}
      {options.map((option) => {
        const id = `${form}-${name}-${option.value}`;
        return (
          <div key={option.value} className={s.radioRow}>
            <input
              type="checkbox"
              id={id}
              name={name}
              form={form}
              value={option.value}
              defaultChecked={checked.includes(option.value)}
              className={s.checkbox}
            />
            <label htmlFor={id} className={s.radioLabel}>
              {option.label}
            </label>
          </div>
        );
      })}
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  );
}
