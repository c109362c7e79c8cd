import { z } from "zod";

// Schemas the browser runs too import zod from here. There zod parses
// without its compiled fast path: probing whether it may compile calls
// `new Function`, which the site's Content-Security-Policy forbids, and
// browsers report the refused probe as a policy violation.
if (typeof document !== "undefined") z.config({ jitless: true });

const KINDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

const plural = (count: number | bigint, unit: string) => `${count} ${unit}${Number(count) === 1 ? "" : "s"}`;

/**
 * Plain words for what a schema refuses without a message of its own (the
 * spec's messages are written into the schemas): a client sending a number
 * for a name reads "Must be text", not zod's "Invalid input: expected
 * string, received number".
 */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "This is required" : `Must be ${KINDS[issue.expected] ?? issue.expected}`;
    case "too_small": {
      const { minimum, inclusive, origin } = issue;
      if (origin === "string") return `Must be at least ${plural(minimum, "character")}`;
      if (origin === "array") return `Must have at least ${plural(minimum, "item")}`;
      return inclusive ? `Must be ${minimum} or more` : `Must be more than ${minimum}`;
    }
    case "too_big": {
      const { maximum, inclusive, origin } = issue;
      if (origin === "string") return `Must be at most ${plural(maximum, "character")}`;
      if (origin === "array") return `Must have at most ${plural(maximum, "item")}`;
      return inclusive ? `Must be ${maximum} or less` : `Must be less than ${maximum}`;
    }
    case "invalid_value":
      return `Must be ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });

export { z };
