// useZodForm is the one way the site's forms are wired to their zod schema:
// it must give every form exactly what the four hand-written useForm calls
// gave (the form's attributes and each control's), keep a refused
// submission's messages and typed values, and hold them back while a new
// submission is on its way.
import { getFormProps, useForm, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { createMemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { useZodForm } from "~/components/useZodForm";
import { formControls } from "~/utils/form-control";
import { FORMS, refused, type FormCase } from "../support/form-cases";
import { renderRouterOnce } from "../support/render-router";

type Seen = { form: unknown; controls: Record<string, unknown> };

/** The form element's attributes; its submit handler compared by kind (each render makes a new one). */
const formAttributes = <S extends Record<string, unknown>>(form: FormMetadata<S, string[]>) =>
  Object.fromEntries(
    Object.entries({ ...getFormProps(form as never), errors: form.errors }).map(([key, value]) => [
      key,
      typeof value === "function" ? "a function" : value,
    ]),
  );

/** Renders `Form` as the page at "/" of a router; with `submitting`, while a submission to it is on its way. */
async function render(Form: () => null, { submitting = false } = {}) {
  const router = createMemoryRouter([{ path: "/", Component: Form, action: () => new Promise<never>(() => {}) }]);
  if (submitting) {
    const form = new FormData();
    form.set("name", "Ann");
    void router.navigate("/", { formMethod: "post", formData: form });
    await expect.poll(() => router.state.navigation.state).toBe("submitting");
  }
  renderRouterOnce(router);
}

/** What the hand-written blocks did: useForm with these options, then formControls. */
async function byHand({ formId, schema, controls, defaultValue }: FormCase, lastResult?: SubmissionResult<string[]>) {
  let seen: Seen = { form: null, controls: {} };
  const constraint = getZodConstraint(schema);
  function Form() {
    const [form, fields] = useForm({
      id: formId,
      lastResult,
      constraint,
      defaultValue: defaultValue as never,
      shouldValidate: "onSubmit",
      shouldRevalidate: "onInput",
      onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    });
    const control = formControls(formId, constraint, fields as never);
    seen = {
      form: formAttributes(form),
      controls: Object.fromEntries(Object.entries(controls).map(([name, type]) => [name, control(name as never, type)])),
    };
    return null;
  }
  await render(Form);
  return seen;
}

async function withHook(
  { formId, schema, controls, defaultValue }: FormCase,
  lastResult?: SubmissionResult<string[]>,
  options?: { submitting?: boolean },
) {
  let seen: Seen = { form: null, controls: {} };
  function Form() {
    const { form, control } = useZodForm(formId, schema, { lastResult, defaultValue: defaultValue as never });
    seen = {
      form: formAttributes(form),
      controls: Object.fromEntries(Object.entries(controls).map(([name, type]) => [name, control(name as never, type)])),
    };
    return null;
  }
  await render(Form, options);
  return seen;
}

describe("useZodForm", () => {
  it.each(FORMS)("gives the $formId form what its hand-written useForm gave, before and after a refused submission", async (form) => {
    expect(await withHook(form)).toEqual(await byHand(form));
    const reply = refused(form.schema, form.wrong);
    const afterRefusal = await withHook(form, reply);
    expect(afterRefusal).toEqual(await byHand(form, reply));
    expect(Object.values(afterRefusal.controls).some((control) => (control as { errors?: string[] }).errors?.length)).toBe(true);
  });

  it("keeps what was typed and the message beside the field", async () => {
    const guestbook = FORMS[0]!;
    const { controls } = await withHook(
      guestbook,
      refused(guestbook.schema, { name: "Ann", email: "ann@example.com", message: "too short" }),
    );
    expect(controls.message).toMatchObject({
      errors: ["Message must be at least 10 characters"],
      props: {
        defaultValue: "too short",
        "aria-invalid": true,
        "aria-describedby": "guestbook-message-error",
        minLength: 10,
        required: true,
      },
    });
    expect(controls.name).toMatchObject({ errors: undefined, props: { defaultValue: "Ann" } });
  });

  it("holds the last answer back while a new submission is on its way", async () => {
    const guestbook = FORMS[0]!;
    const reply = refused(guestbook.schema, { name: "", email: "ann@example.com", message: "A long enough message" });
    expect((await withHook(guestbook, reply)).controls.name).toMatchObject({ errors: ["Name is required"] });
    expect((await withHook(guestbook, reply, { submitting: true })).controls.name).toMatchObject({ errors: undefined });
  });
});
