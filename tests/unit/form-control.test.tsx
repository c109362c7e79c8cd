// formControl gives every form control the attributes conform's own
// getInputProps / getTextareaProps would, pristine and after a refused
// submission, for every form on the site.
import { getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { MemoryFormSchema } from "~/guestbook/memory.schema";
import { formControls, type ControlType } from "~/utils/form-control";
import { FORMS, refused } from "../support/form-cases";

type Controls = Record<string, ControlType>;

/** Renders a form with useForm and returns, per field, what conform derives and what formControl derives. */
function bothWays(
  formId: string,
  schema: z.ZodObject,
  controls: Controls,
  lastResult?: SubmissionResult<string[]>,
  defaultValue?: Record<string, unknown>,
) {
  const constraint = getZodConstraint(schema);
  let compared: Record<string, { conform: unknown; ours: unknown }> = {};
  function Probe() {
    const [, fields] = useForm({ id: formId, constraint, lastResult, defaultValue: defaultValue as never });
    const all = fields as unknown as Record<string, Parameters<typeof getInputProps>[0]>;
    const control = formControls(formId, constraint, all as unknown as Record<string, { errors?: string[]; initialValue?: unknown }>);
    compared = {};
    for (const [name, type] of Object.entries(controls)) {
      const field = all[name]!;
      const conform = type === "textarea" ? getTextareaProps(field) : getInputProps(field, { type } as Parameters<typeof getInputProps>[1]);
      const ours = control(name, type);
      compared[name] = {
        conform: { props: conform, errors: field.errors, errorId: field.errorId },
        ours: { props: { ...ours.props }, errors: ours.errors, errorId: ours.errorId },
      };
    }
    return null;
  }
  renderToString(<Probe />);
  return compared;
}

describe("formControl", () => {
  it.each(FORMS)(
    "gives the $formId form's controls the attributes conform gives them, before and after a refused submission",
    ({ formId, schema, controls, defaultValue, wrong }) => {
      const pristine = bothWays(formId, schema, controls, undefined, defaultValue);
      for (const [name, { conform, ours }] of Object.entries(pristine)) expect(ours, `${formId} ${name}, pristine`).toEqual(conform);

      const afterRefusal = bothWays(formId, schema, controls, refused(schema, wrong), defaultValue);
      const withErrors = Object.entries(afterRefusal).filter(([, { conform }]) => (conform as { errors?: string[] }).errors);
      expect(withErrors.length, `${formId}: the wrong input is refused on some field`).toBeGreaterThan(0);
      for (const [name, { conform, ours }] of Object.entries(afterRefusal)) expect(ours, `${formId} ${name}, refused`).toEqual(conform);
    },
  );

  it("keeps what was typed, marks the field invalid and points it at its message", () => {
    const { message } = bothWays(
      "guestbook",
      MemoryFormSchema,
      { message: "textarea" },
      refused(MemoryFormSchema, { name: "Ann", email: "ann@example.com", message: "too short" }),
    );
    expect(message!.ours).toEqual({
      props: {
        id: "guestbook-message",
        name: "message",
        form: "guestbook",
        required: true,
        minLength: 10,
        maxLength: 5000,
        defaultValue: "too short",
        "aria-invalid": true,
        "aria-describedby": "guestbook-message-error",
      },
      errors: ["Message must be at least 10 characters"],
      errorId: "guestbook-message-error",
    });
  });
});
