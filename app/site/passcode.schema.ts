import { PASSCODE_MAX } from "~/site/settings.schema";
import { z } from "~/utils/zod";

// The passcode page's form (app/routes/passcode.tsx): one field, and the
// page to return to.

const PASSCODE_REQUIRED = "Please enter the passcode.";
export const PASSCODE_WRONG = "That passcode is not right. Please check it with the family and try again.";
export const PASSCODE_CHECKS_BUSY = "Many passcodes are being checked right now. Please wait a moment and try again.";
/** What the API, media and other files answer a visitor without the passcode. */
export const PASSCODE_NEEDED = "This memorial is private. Please open the website and enter the family's passcode first.";

export const PasscodeSchema = z.object({
  passcode: z
    .string({ message: PASSCODE_REQUIRED })
    .trim()
    .min(1, PASSCODE_REQUIRED)
    .max(PASSCODE_MAX, `A passcode is at most ${PASSCODE_MAX} characters.`),
  redirectTo: z.string().optional(),
});

/** "Too many tries…": how long to wait, in whole minutes. */
export function tooManyPasscodeTries(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many passcodes were tried from your network. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`;
}
