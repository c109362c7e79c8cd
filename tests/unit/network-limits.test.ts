// Per-network limits seen through the routes a visitor's browser calls.
import { beforeEach, describe, expect, it } from "vitest";
import { resetUploadLimits, TOO_MANY_UPLOADS, UPLOADS_PER_10_MINUTES } from "~/uploads/upload-intake.server";
import { action as signAction } from "~/routes/api.uploads.sign";

const ORIGIN = "http://memorial.test";

beforeEach(() => resetUploadLimits());

async function signFrom(clientIp: string): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/uploads/sign`, { method: "POST" });
  const result = await Promise.resolve(signAction({ request, params: {}, context: { clientIp } } as never)).catch(
    (thrown: unknown) => thrown,
  );
  if (!(result instanceof Response)) throw new Error(`expected a Response, got ${String(result)}`);
  return result;
}

describe("upload signing per network", () => {
  it("counts every address of one IPv6 /64 as one network: the 301st signing from 310 addresses is refused", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 310; i++) statuses.push((await signFrom(`2001:db8:abcd:12:${(i + 1).toString(16)}:${i % 7}::${i % 3}`)).status);
    expect(statuses.slice(0, UPLOADS_PER_10_MINUTES)).toEqual(Array(UPLOADS_PER_10_MINUTES).fill(200));
    expect(statuses.slice(UPLOADS_PER_10_MINUTES)).toEqual(Array(310 - UPLOADS_PER_10_MINUTES).fill(429));
    const refused = await signFrom("2001:db8:abcd:12::ffff");
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({ errors: { file: [TOO_MANY_UPLOADS] } });
    // The next /64, and an IPv4 visitor, are other networks.
    expect((await signFrom("2001:db8:abcd:13::1")).status).toBe(200);
    expect((await signFrom("203.0.113.50")).status).toBe(200);
  });

  it("counts an IPv4 visitor the same whether the socket reports it plain or mapped into IPv6", async () => {
    for (let i = 0; i < UPLOADS_PER_10_MINUTES; i++) {
      expect((await signFrom(i % 2 ? "198.51.100.23" : "::ffff:198.51.100.23")).status).toBe(200);
    }
    expect((await signFrom("::ffff:c633:6417")).status).toBe(429);
  });
});
