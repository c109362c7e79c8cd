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
 * An admin form checked by the same zod schema its action parses with, so the
 * browser and the server can never disagree. The last reply is held back while
 * a new submission is on its way, so an old refusal does not linger beside it.
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
