import { useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { formControls } from "~/utils/form-control";

type Constraint = ReturnType<typeof getZodConstraint>;

// Each schema's HTML validation attributes, worked out once (not on every render:
// the guest book's server render time counts, bench/pages.mjs).
const constraints = new WeakMap<z.ZodObject, Constraint>();
function constraintOf(schema: z.ZodObject): Constraint {
  let constraint = constraints.get(schema);
  if (!constraint) constraints.set(schema, (constraint = getZodConstraint(schema)));
  return constraint;
}

/**
 * A form validated by one zod schema, the same one its action parses with:
 * the browser checks the schema's HTML attributes before any JavaScript runs,
 * then conform checks the schema itself on submit and again on every input
 * once a field is wrong. `lastResult` is the action's reply (what the server
 * refused, with what was typed); it is held back while a new submission is on
 * its way. `control(name, type)` gives a field's attributes (formControls).
 */
export function useZodForm<Schema extends z.ZodObject>(
  id: string,
  schema: Schema,
  options: { lastResult?: SubmissionResult<string[]> | null; defaultValue?: DefaultValue<z.input<Schema>> } = {},
) {
  const navigation = useNavigation();
  const constraint = constraintOf(schema);
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id,
    lastResult: navigation.state === "idle" ? options.lastResult : undefined,
    constraint,
    defaultValue: options.defaultValue,
    // Validate on submit: messages appearing on blur would move the button away from a pending click.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return { form, fields, control: formControls(id, constraint, fields) };
}
