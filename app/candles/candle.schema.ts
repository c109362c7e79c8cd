import type { Status } from "../../db/schema";
import { HIDDEN_CHARACTER } from "~/utils/plain-text";
import { z } from "~/utils/zod";
import { CANDLE_MESSAGE_MAX, CANDLE_NAME_MAX } from "./candle.constants";

// The rules for a candle, one schema for the form action and POST
// /api/candles, so they never disagree. The public forms get the HTML
// attributes worked out from it on the server (form-schema.server.ts), never zod itself.

/** Optional one-line text: empty is none; a pasted tab is a space; no line breaks or hidden characters. */
const oneLine = (label: string, max: number) =>
  z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
    z
      .string({ error: `${label} must be text` })
      .overwrite((value) => value.replace(/\t/g, " "))
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .refine((value) => !HIDDEN_CHARACTER.test(value), `${label} must be one line of plain text, without line breaks or hidden characters`)
      .optional(),
  );

const candleFields = {
  name: oneLine("Your name", CANDLE_NAME_MAX),
  message: oneLine("Your words", CANDLE_MESSAGE_MAX),
};

/** POST /api/candles: `{ name?, message? }`, both optional. */
export const CandleApiSchema = z.object(candleFields);
export type CandleInput = z.infer<typeof CandleApiSchema>;

/** The form on the home page, the guest book and /candles: where to go back to, and the spam trap. */
export const CandleFormSchema = z.object({
  ...candleFields,
  redirectTo: z.string().optional(),
  // Honeypot: hidden from people, filled in by bots (not `website`: the guest book's form on the same page has that one).
  webpage: z.string().optional(),
});

/** PATCH /api/admin/candles/{id}: publish a candle's words, or refuse them. */
export const CandlePatchSchema = z.object({
  status: z.enum(["APPROVED", "REJECTED"], { message: "status must be APPROVED or REJECTED" }),
});

/** What visitors and the public API see of a candle with words the family published. */
export interface PublicCandle {
  name: string | null;
  message: string | null;
  createdAt: string;
}

/** GET /api/candles, and what the pages show. */
export interface CandleSummary {
  count: number;
  recent: PublicCandle[];
}

/** What the family sees of a candle. */
export interface AdminCandle {
  id: number;
  name: string | null;
  message: string | null;
  status: Status;
  /** Refused by a helper: kept, shown only in the family's Set aside view, for them to publish or delete. */
  setAside: boolean;
  /** Whether it is the visitor's first candle that day, the only kind the count includes. */
  counted: boolean;
  createdAt: string;
  moderatedBy: string | null;
  moderatedAt: string | null;
}
