// useServerForm is how the public guest book and attendance forms are wired
// without zod or conform in the browser: it must give each form and its
// controls exactly what useZodForm gave (so the page without JavaScript is
// unchanged), from the constraint the server sends and the action's reply.
import { getFormProps, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { createMemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { useServerForm } from "~/components/useServerForm";
import { useZodForm } from "~/components/useZodForm";
import { memoryForm } from "~/guestbook/memory.server";
import { rsvpForm } from "~/attendance/rsvp.server";
import { serverForm } from "~/platform/form-schema.server";
import { FORMS, refused, type FormCase } from "../support/form-cases";
import { renderRouterOnce } from "../support/render-router";

type Seen = { form: Record<string, unknown>; errors: unknown; controls: Record<string, unknown> };

function render(Form: () => null) {
  renderRouterOnce(createMemoryRouter([{ path: "/", Component: Form }]));
}

function withZod({ formId, schema, controls, defaultValue }: FormCase, lastResult?: SubmissionResult<string[]>): Seen {
  let seen: Seen = { form: {}, errors: undefined, controls: {} };
  function Form() {
    const { form, control } = useZodForm(formId, schema, { lastResult, defaultValue: defaultValue as never });
    // conform's submit handler checks in the browser; the server-checked form has none.
    const { onSubmit: _onSubmit, ...attributes } = getFormProps(form as FormMetadata<Record<string, unknown>, string[]>);
    seen = {
      form: attributes,
      errors: form.errors,
      controls: Object.fromEntries(Object.entries(controls).map(([name, type]) => [name, control(name as never, type)])),
    };
    return null;
  }
  render(Form);
  return seen;
}

function withServer({ formId, schema, controls, defaultValue }: FormCase, lastResult?: SubmissionResult<string[]>): Seen {
  let seen: Seen = { form: {}, errors: undefined, controls: {} };
  const { constraint } = serverForm(schema);
  function Form() {
    const { formProps, formErrors, control } = useServerForm<string>(formId, constraint, { lastResult, defaultValue });
    seen = {
      form: formProps,
      errors: formErrors,
      controls: Object.fromEntries(Object.entries(controls).map(([name, type]) => [name, control(name, type)])),
    };
    return null;
  }
  render(Form);
  return seen;
}

const PUBLIC_FORMS = FORMS.filter((form) => form.formId === "guestbook" || form.formId === "rsvp");

describe("useServerForm", () => {
  it("covers the guest book and attendance forms", () => {
    expect(PUBLIC_FORMS.map((form) => form.formId)).toEqual(["guestbook", "rsvp"]);
  });

  it.each(PUBLIC_FORMS)("gives the $formId form what useZodForm gave, before and after a refused submission", (form) => {
    expect(withServer(form)).toEqual(withZod(form));
    const reply = refused(form.schema, form.wrong);
    const afterRefusal = withServer(form, reply);
    expect(afterRefusal).toEqual(withZod(form, reply));
    expect(Object.values(afterRefusal.controls).some((control) => (control as { errors?: string[] }).errors?.length)).toBe(true);
  });

  it("keeps a form-level reason and points the form at it", () => {
    const guestbook = PUBLIC_FORMS[0]!;
    const reply = { status: "error", initialValue: { name: "Ann" }, error: { "": ["Too many submissions."] } } as SubmissionResult<
      string[]
    >;
    const seen = withServer(guestbook, reply);
    expect(seen).toEqual(withZod(guestbook, reply));
    expect(seen.errors).toEqual(["Too many submissions."]);
  });

  it("the pages' constraints are their schemas' HTML attributes", () => {
    expect(memoryForm.constraint.message).toMatchObject({ required: true, minLength: 10, maxLength: 5000 });
    expect(memoryForm.constraint.email).toMatchObject({ required: true });
    expect(rsvpForm.constraint.name).toMatchObject({ required: true, maxLength: 100 });
  });
});
