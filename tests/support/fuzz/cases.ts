// What a fuzz request is, what its answer must be, and how an answer is judged.
// Shared by the tests/integration/fuzz-*.test.ts files, one per target.

export type Ctx = "anon" | "admin";
export type Table = "memories" | "rsvps" | "poems";
export type Expectation =
  | { kind: "any" } // anything but a 5xx: the input may well be valid
  | { kind: "4xx" } // certainly wrong input
  | { kind: "status"; statuses: number[] }
  | { kind: "login" } // an admin form without a session: back to the login card
  | { kind: "failed-toast" }; // an admin form with a session and wrong input: redirect with the "Error" toast

export interface Toast {
  title?: string;
  description?: string;
  type?: string;
}

export interface Answer {
  status: number;
  text: string;
  location: string | null;
  toast: Toast | null;
}

export interface Case {
  endpoint: string;
  method: string;
  url: string;
  ctx: Ctx;
  headers?: Record<string, string>;
  body?: Buffer;
  expect: Expectation;
  /** A 4xx answer must be {"errors": {"<field>": ["<message>"]}}; with names, a 400 must name one of them. */
  apiErrors?: string[] | true;
  /** A redirect must stay on this site (no open redirect). */
  sameSiteRedirect?: boolean;
  /** The rows this answer wrote, for the count check at the end. */
  wrote?: (answer: Answer) => Partial<Record<Table, number>>;
  /** More to check in this answer. */
  check?: (answer: Answer) => string | null;
}

export const ANY: Expectation = { kind: "any" };
export const WRONG: Expectation = { kind: "4xx" };
export const LOGIN: Expectation = { kind: "login" };
export const FAILED_TOAST: Expectation = { kind: "failed-toast" };
export const status = (...statuses: number[]): Expectation => ({ kind: "status", statuses });

/** Whether an expectation is a refusal (counted as "certainly wrong" in the summary). */
export const refusal = (e: Expectation) =>
  e.kind === "4xx" || e.kind === "login" || e.kind === "failed-toast" || (e.kind === "status" && e.statuses.every((s) => s >= 400));

/** The one-time message of a redirect (the signed __toast cookie; its payload is base64 JSON). */
export function toastOf(setCookies: string[]): Toast | null {
  for (const header of setCookies) {
    const match = /^__toast=([^;]+)/.exec(header);
    if (!match?.[1]) continue;
    try {
      const raw = decodeURIComponent(match[1]);
      const payload = raw.slice(0, raw.lastIndexOf("."));
      const data = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as Record<string, unknown>;
      return (data.__flash_toast__ as Toast | undefined) ?? null;
    } catch {
      return null;
    }
  }
  return null;
}

function errorsShapeProblem(answer: Answer, fields: string[] | true): string | null {
  let data: unknown;
  try {
    data = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} from the API without a JSON body`;
  }
  const errors = (data as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== "object" || Array.isArray(errors)) return `a ${answer.status} without {"errors": {...}}`;
  const entries = Object.entries(errors as Record<string, unknown>);
  const wellFormed = (messages: unknown) =>
    Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === "string" && m.length > 0);
  if (!entries.length || !entries.every(([, messages]) => wellFormed(messages))) {
    return `a ${answer.status} whose errors are not {"<field>": ["<message>"]}`;
  }
  if (fields !== true && answer.status === 400 && !fields.some((field) => field in errors)) {
    return `the 400 names ${Object.keys(errors).join(", ")} but none of the wrong fields (${fields.join(", ")})`;
  }
  return null;
}

/** What is wrong with this answer to this case, or null. */
export function verdict(c: Case, a: Answer): string | null {
  if (a.status >= 500) return `server error ${a.status}`;
  const e = c.expect;
  if (e.kind === "4xx" && (a.status < 400 || a.status > 499)) return `certainly invalid input answered ${a.status}, not a 4xx`;
  if (e.kind === "status" && !e.statuses.includes(a.status)) return `expected ${e.statuses.join(" or ")}, got ${a.status}`;
  if (e.kind === "login" && (a.status !== 302 || !a.location?.startsWith("/admin"))) {
    return `expected a redirect to the admin login, got ${a.status} ${a.location ?? ""}`;
  }
  if (e.kind === "failed-toast" && (a.status !== 302 || a.toast?.title !== "Error")) {
    return `expected a redirect with the "Error" toast, got ${a.status} with toast ${JSON.stringify(a.toast?.title ?? null)}`;
  }
  if (c.apiErrors && a.status >= 400 && a.status < 500) {
    const problem = errorsShapeProblem(a, c.apiErrors);
    if (problem) return problem;
  }
  if (c.sameSiteRedirect && a.status >= 300 && a.status < 400) {
    const to = a.location ?? "";
    if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return `redirects off the site, to ${JSON.stringify(to)}`;
  }
  return c.check?.(a) ?? null;
}

/** A failure as a person reads it: the problem, the request and the answer. */
export function describeCase(c: Case, a: Answer | null, problem: string) {
  const headers = Object.entries(c.headers ?? {})
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(", ");
  const preview = c.body ? JSON.stringify(c.body.subarray(0, 400).toString("utf8")) : "";
  const body = c.body ? `${c.body.length} bytes, ${preview}${c.body.length > 400 ? "…" : ""}` : "none";
  const answer = a ? `${a.status} ${JSON.stringify(a.text.slice(0, 300))}` : "none";
  return [
    `${c.endpoint}: ${problem}`,
    `  request: ${c.method} ${c.url} (${c.ctx === "admin" ? "admin session" : "no session"})`,
    `  headers: ${headers || "none"}`,
    `  body: ${body}`,
    `  answer: ${answer}`,
  ].join("\n");
}
