// What the admin reads of an upload's processing, in each state.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProcessingStatus } from "~/components/admin/PendingUploads";
import type { ProcessingState } from "~/uploads/upload.schema";

const said = (processing: ProcessingState, type: "IMAGE" | "VIDEO" = "VIDEO") =>
  renderToStaticMarkup(<ProcessingStatus upload={{ processing, type }} />).replace(/<[^>]+>/g, "");

describe("the admin's processing note", () => {
  it("says each state in words, with how far a video's web copy has come", () => {
    expect(said({ state: "waiting" })).toBe("Waiting to be prepared: this video can be published once it is ready.");
    expect(said({ state: "processing", percent: 40, minutesLeft: null })).toBe(
      "Being prepared: 40% done. This video can be published once it is ready.",
    );
    expect(said({ state: "processing", percent: 40, minutesLeft: 3 })).toBe(
      "Being prepared: 40% done, still preparing — about 3 minutes. This video can be published once it is ready.",
    );
    expect(said({ state: "processing", percent: 95, minutesLeft: 1 })).toBe(
      "Being prepared: 95% done, still preparing — about 1 minute. This video can be published once it is ready.",
    );
    expect(said({ state: "processing", percent: null, minutesLeft: null }, "IMAGE")).toBe(
      "Being prepared: this photo can be published once it is ready.",
    );
    expect(said({ state: "ready" })).toBe("Ready to publish.");
    expect(said({ state: "failed", reason: "preparing it took longer than 70 seconds, so it was stopped" })).toBe(
      "This file could not be processed: preparing it took longer than 70 seconds, so it was stopped. It cannot be published.",
    );
  });
});
