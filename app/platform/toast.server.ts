import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { config } from "~/platform/config.server";
import type { Toast, ToastInput } from "~/utils/toast";

const TOAST_KEY = "toast";

const toastStorage = createCookieSessionStorage({
  cookie: {
    name: "__toast",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: config.NODE_ENV === "production",
    secrets: config.sessionSecrets,
  },
});

/** Sets a one-time message that the next page shows, with or without JavaScript. */
async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const session = await toastStorage.getSession();
  const toast: Toast = { id: randomUUID(), type: "default", ...input };
  session.flash(TOAST_KEY, toast);
  return new Headers({ "Set-Cookie": await toastStorage.commitSession(session) });
}

/** POST/redirect/GET with a confirmation the next page shows. */
export async function redirectWithToast(url: string, input: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  const toastHeaders = await createToastHeaders(input);
  headers.append("Set-Cookie", toastHeaders.get("Set-Cookie")!);
  return redirect(url, { ...init, headers });
}

/** The pending message's session and the message, if any. */
async function readToast(request: Request) {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  return { session, toast: (session.get(TOAST_KEY) as Toast | undefined) ?? null };
}

/** Reads (and clears) the pending message, if any. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const { session, toast } = await readToast(request);
  if (!toast) return { toast: null, headers: null };
  return {
    toast,
    headers: new Headers({ "Set-Cookie": await toastStorage.destroySession(session) }),
  };
}

/** The pending message, if any, left for the root loader to show and clear: a page may answer it (the guest book's next step). */
export async function peekToast(request: Request): Promise<Toast | null> {
  return (await readToast(request)).toast;
}
