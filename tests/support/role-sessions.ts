// Two admins for the tests of roles: "keeper", family, and "anna", a helper,
// each logged in, and requests sent as either (or as nobody).
import { createAdmin } from "~/admins/admin.server";
import { startAdminSession } from "~/admins/session.server";
import { operator } from "~/platform/actor.server";

export type Who = "family" | "helper";

/** Adds keeper (family) and anna (helper) and logs both in: their ids and the Cookie headers of their sessions. */
export async function familyAndHelper(origin: string) {
  const keeper = await createAdmin({ username: "keeper", password: "the-right-password", role: "family" }, operator());
  const anna = await createAdmin({ username: "anna", password: "annas-password", role: "helper" }, operator());
  const logIn = async (id: number) => (await startAdminSession(new Request(`${origin}/admin`), { id })).split(";")[0]!;
  return { ids: { keeper: keeper.id, anna: anna.id }, cookies: { family: await logIn(keeper.id), helper: await logIn(anna.id) } };
}

/** Requests to `origin` as one of them (`null`: without a session), with the cookies `familyAndHelper` fills in. */
export function requestsAs(origin: string, cookies: Record<Who, string>) {
  const cookie = (who: Who | null): Record<string, string> => (who ? { Cookie: cookies[who] } : {});
  return {
    get: (url: string, who: Who | null) => new Request(`${origin}${url}`, { headers: cookie(who) }),
    post: (url: string, fields: Record<string, string>, who: Who | null) =>
      new Request(`${origin}${url}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...cookie(who) },
        body: new URLSearchParams(fields),
      }),
    api: (url: string, method: string, who: Who | null, body?: unknown) =>
      new Request(`${origin}${url}`, {
        method,
        headers: { ...cookie(who), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}
