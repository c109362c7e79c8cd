// What the API says about a value no message of the spec covers: plain
// words, never zod's own ("Invalid input: expected string, received number").
import { describe, expect, it } from "vitest";
import { CompleteUploadSchema } from "~/uploads/complete-upload.schema";
import { PoemInput } from "~/poems/poem.schema";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { z } from "~/utils/zod";

const messages = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
};

describe("a value of the wrong kind", () => {
  it("is named in plain words on the fields the spec gives no message for", () => {
    expect(messages(PoemInput, { title: "Roses", content: "Are red", author: 5 })).toEqual({ author: ["Must be text"] });
    expect(messages(CompleteUploadSchema, { uploadURL: "/u/1", submittedBy: "Ann (ann@example.com)", width: "abc", height: -5 })).toEqual({
      width: ["Must be a number"],
      height: ["Must be 0 or more"],
    });
  });

  it("keeps the spec's own messages where it has them", () => {
    expect(messages(PoemInput, { title: "", content: "Are red" })).toEqual({ title: ["Title is required"] });
    expect(messages(CompleteUploadSchema, { uploadURL: "/u/1" })).toMatchObject({ submittedBy: ["Name and email are required"] });
  });

  it("never reads like zod's defaults", () => {
    const all = JSON.stringify([
      messages(z.object({ a: z.string(), b: z.number().max(3), c: z.enum(["A", "B"]), d: z.array(z.string()).min(1) }), {
        a: 1,
        b: 9,
        c: "C",
        d: [],
      }),
      messages(RsvpSchema, { name: 7, email: true, guestCount: "lots" }),
    ]);
    expect(all).not.toMatch(/Invalid input|Too small|Too big|expected \w+, received/);
    expect(all).toContain("Must be 3 or less");
    expect(all).toContain('Must be \\"A\\" or \\"B\\"');
    expect(all).toContain("Must have at least 1 item");
  });
});
