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
