// An unexpected server error is one JSON log line with its stack, and never
// the query string a visitor's words may be in.
import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "@remix-run/router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "~/entry.server";

afterEach(() => vi.restoreAllMocks());

function logged(run: () => void): unknown[] {
  const lines: unknown[] = [];
  vi.spyOn(console, "error").mockImplementation((line: unknown) => lines.push(line));
  run();
  return lines;
}

describe("handleError", () => {
  const args = (request: Request) => ({ request, params: {}, context: {} });

  it("logs one JSON line with the method, the path without its query, the message and the stack", () => {
    const error = new Error("database is locked");
    const lines = logged(() =>
      handleError(error, args(new Request("http://localhost/guestbook?name=Ann+Smith&email=ann@example.com", { method: "POST" }))),
    );
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(String(lines[0])) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "error", method: "POST", path: "/guestbook", error: "database is locked" });
    expect(String(entry.stack)).toContain("database is locked");
    expect(String(entry.stack)).toContain("error-log.test.ts");
    expect(String(lines[0])).not.toContain("Ann");
    expect(String(lines[0])).not.toContain("example.com");
  });

  it("says nothing about a request the visitor abandoned", () => {
    const controller = new AbortController();
    controller.abort();
    const lines = logged(() =>
      handleError(new Error("aborted"), args(new Request("http://localhost/gallery", { signal: controller.signal }))),
    );
    expect(lines).toEqual([]);
  });

  it("logs a made-up address or method (404, 405) as one warning line without a stack", () => {
    const warnings: unknown[] = [];
    vi.spyOn(console, "warn").mockImplementation((line: unknown) => warnings.push(line));
    for (const [status, statusText, message] of [
      [404, "Not Found", 'No route matches URL "/wp-login.php"'],
      [405, "Method Not Allowed", 'You made a PUT request to "/poems" but did not provide an `action`'],
    ] as const) {
      const notFound = new ErrorResponse(status, statusText, new Error(message), true);
      const errors = logged(() => handleError(notFound, args(new Request("http://localhost/wp-login.php?user=x"))));
      expect(errors).toEqual([]);
      const entry = JSON.parse(String(warnings.at(-1))) as Record<string, unknown>;
      expect(entry).toMatchObject({ level: "warn", status, path: "/wp-login.php", msg: statusText });
      expect(entry.stack).toBeUndefined();
    }
    expect(warnings).toHaveLength(2);
  });
});
