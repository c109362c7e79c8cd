import { z } from "~/utils/zod";

// "Let helpers read first": the family's choice to leave new memories,
// photos and videos to their helpers. Client-safe: the Site tab's form and
// PATCH /api/admin/settings read it with these schemas.

export const READ_FIRST_LABEL = "Let helpers read first";

/** Its section of the Site tab (its anchor, and the form's `section`). */
export const READ_FIRST_SECTION = "helpers";

/** The setting in PATCH /api/admin/settings: true or false, nothing else. */
export const HelpersReadFirst = z.boolean({ message: `${READ_FIRST_LABEL} must be true or false` });

/** The Site tab's form: a checkbox, sent ("on") when ticked and left out when not. */
export const ReadFirstFormSchema = z.object({ helpersReadFirst: z.boolean().optional() });
