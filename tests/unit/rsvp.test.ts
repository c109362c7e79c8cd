import { beforeEach, describe, expect, it } from "vitest";
import { rsvps } from "../../db/schema";
import { config } from "~/platform/config.server";
import { db } from "~/platform/db.server";
import { resetSubmissionLimits } from "~/platform/submission-limit.server";
import { RsvpSchema } from "~/attendance/rsvp.schema";
import { createRsvp, getRsvpStats } from "~/attendance/rsvp.server";
import { action as apiAction } from "~/routes/api.rsvp";

beforeEach(() => {
  db.delete(rsvps).run();
  resetSubmissionLimits();
});

const note = RsvpSchema.parse({ name: "Aunt Rose", email: "rose@example.com", guestCount: 2, notes: "We sat at the back." });

function apiPost(data: unknown, clientIp = "192.0.2.50") {
  const request = new Request("http://localhost/api/rsvp", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
  return apiAction({ request, params: {}, context: { clientIp } }) as Promise<Response>;
}

describe("attendance notes", () => {
  it("the same note sent twice is kept once, with the same id", () => {
    const first = createRsvp(note, { clientIp: "192.0.2.1" });
    const second = createRsvp(note, { clientIp: "192.0.2.1" });
    expect(second.id).toBe(first.id);
    expect(createRsvp({ ...note, guestCount: 3 }).id).not.toBe(first.id);
    expect(getRsvpStats()).toMatchObject({ totalRsvps: 2, totalGuests: 5 });
  });

  it("count against the same allowance as guest-book memories, and the API answers 429 past it with Retry-After", async () => {
    for (let i = 0; i < config.SUBMISSIONS_PER_10_MINUTES; i++) {
      expect((await apiPost({ ...note, notes: `Note ${i}` })).status).toBe(201);
    }
    const refused = await apiPost({ ...note, notes: "One too many" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(getRsvpStats().totalRsvps).toBe(config.SUBMISSIONS_PER_10_MINUTES);
    // Another network is not held back.
    expect((await apiPost({ ...note, notes: "From elsewhere" }, "198.51.100.9")).status).toBe(201);
  });
});
