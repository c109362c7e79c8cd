import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { Constraint } from "~/utils/form-control";

/**
 * A public form's zod schema, used on the server only: `parse` reads a
 * submission (conform's reply shape, as the admin forms' useZodForm reads
 * it), and `constraint` is each field's HTML validation attributes, worked
 * out once and sent to the page in the loader's data, so the page needs no
 * zod (docs/decisions/017).
 */
export function serverForm<Schema extends z.ZodObject>(schema: Schema) {
  const constraint: Record<string, Constraint> = getZodConstraint(schema);
  return {
    constraint,
    parse: (formData: FormData) => parseWithZod(formData, { schema }),
  };
}
