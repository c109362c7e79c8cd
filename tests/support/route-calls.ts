// Calling a route's loader or action in process, as Remix would.

/** What a route function answered, thrown (a redirect or a 4xx) or returned. */
export async function answer(call: () => unknown): Promise<Response> {
  try {
    return (await call()) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The cookies a response sets, as the Cookie header of the next request. */
export const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");

/** The toast a redirect sets (a signed cookie whose value is base64 JSON), or undefined. */
export function toastOf(response: Response): { title: string; description?: string; type: string } | undefined {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  if (!cookie) return undefined;
  const value = decodeURIComponent(cookie.split(";")[0]!.slice("__toast=".length));
  const data = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as Record<string, unknown>;
  return data["__flash_toast__"] as never;
}
