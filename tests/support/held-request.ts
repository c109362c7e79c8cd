// A request whose body arrives slowly, for the checks made while an admin's
// request is on its way (tests/unit/admin-recheck.test.ts, role-recheck.test.ts).

const ORIGIN = "http://localhost";

export interface HeldBody {
  method?: string;
  contentType: string;
  body: Buffer | string;
}

/**
 * A request whose body stops halfway: `halfRead` resolves once the route
 * asks for the rest (so it has checked the session and is reading the
 * body), and the rest comes when `release` is called.
 */
export function heldRequest(urlPath: string, init: HeldBody, cookie: string) {
  const bytes = Buffer.from(init.body);
  const half = Math.floor(bytes.length / 2);
  let reading!: () => void;
  let release!: () => void;
  const halfRead = new Promise<void>((resolve) => (reading = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pulls++ === 0) return controller.enqueue(new Uint8Array(bytes.subarray(0, half)));
        reading();
        await released;
        controller.enqueue(new Uint8Array(bytes.subarray(half)));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request(`${ORIGIN}${urlPath}`, {
    method: init.method ?? "POST",
    headers: { "Content-Type": init.contentType, "Content-Length": String(bytes.length), Cookie: cookie },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, halfRead, release };
}

export const jsonBody = (data: unknown) => ({ contentType: "application/json", body: JSON.stringify(data) });
export const formBody = (fields: Record<string, string>) => ({
  contentType: "application/x-www-form-urlencoded",
  body: new URLSearchParams(fields).toString(),
});
export async function multipartBody(form: FormData) {
  const encoded = new Request(ORIGIN, { method: "POST", body: form });
  return { contentType: encoded.headers.get("Content-Type")!, body: Buffer.from(await encoded.arrayBuffer()) };
}
