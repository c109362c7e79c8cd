import { z } from "zod";

// Schemas the browser runs too import zod from here. There zod parses
// without its compiled fast path: probing whether it may compile calls
// `new Function`, which the site's Content-Security-Policy forbids, and
// browsers report the refused probe as a policy violation.
if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
