// The upload confirmation: the spec's sentence always, and for several files
// a warmer word about all of them rather than a count ("Files received: 2.").
import { describe, expect, it } from "vitest";
import { uploadCompleteToast } from "~/uploads/upload.schema";

const SPEC = "Your file has been uploaded successfully and is pending review.";

describe("the upload confirmation", () => {
  it("one file: the spec's words alone", () => {
    expect(uploadCompleteToast(1)).toEqual({ title: "Upload Complete", description: SPEC });
    expect(uploadCompleteToast(1, 1)).toEqual({ title: "Upload Complete", description: SPEC });
  });

  it("several files, all here: the spec's words, then thanks for all of them", () => {
    expect(uploadCompleteToast(3)).toEqual({
      title: "Upload Complete",
      description: `${SPEC} All 3 of your files arrived safely. Thank you for sharing them.`,
    });
  });

  it("several files, some still on their way (the upload dialog confirms each as it arrives)", () => {
    expect(uploadCompleteToast(2, 5).description).toBe(`${SPEC} 2 of your 5 files are safely here, and the others are on their way.`);
    expect(uploadCompleteToast(1, 2).description).toBe(`${SPEC} 1 of your 2 files is safely here, and the last one is on its way.`);
  });
});
