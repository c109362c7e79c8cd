import { json } from "@remix-run/node";
import type { SiteMediaFormResult } from "~/models/site-media.schema";
import { readFormData } from "./http.server";
import { asRefusal } from "./refusal.server";

// What the hero photo and Karen Mode song actions share: which of their two
// forms was sent, and their refusals in the forms' shape.

/** The upload form (multipart); the reset form is a small url-encoded one. */
export const isMultipart = (request: Request) =>
  (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase() === "multipart/form-data";

const refusedForm = (status: number, message: string, headers?: Record<string, string>) =>
  json({ result: { formErrors: [message], fieldErrors: {}, values: {} } satisfies SiteMediaFormResult }, { status, headers });

/** A 400 in the form's shape unless the small form asks for `expected` (its intent); null when it does. */
export async function unknownIntent(request: Request, expected: string) {
  const form = await readFormData(request);
  if (form.get("intent") === expected) return null;
  return refusedForm(400, "This form could not be understood. Please reload the page and try again.");
}

/** A reset that storage refused (a full disk), in the form's shape; anything else is a fault and is thrown. */
export function refusedReset(error: unknown) {
  const refusal = asRefusal(error);
  if (!refusal) throw error;
  return refusedForm(refusal.status, refusal.message, refusal.headers);
}
