import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readFormData } from "~/utils/http.server";
import { karenModeCookieHeader } from "~/utils/karen-mode.server";

/**
 * Only a path on this site is followed back (never another host), in its
 * encoded form, so odd characters can never reach the Location header raw.
 */
function backTo(value: FormDataEntryValue | null) {
  const target = typeof value === "string" ? value : "/";
  if (!target.startsWith("/") || target.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(target)) return "/";
  try {
    const url = new URL(target, "http://site.invalid");
    return url.origin === "http://site.invalid" ? `${url.pathname}${url.search}` : "/";
  } catch {
    return "/";
  }
}

export const loader = () => redirect("/");

/**
 * The footer's Karen Mode button: a plain form that flips the cookie and
 * returns to the same page, so the party style works without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const on = form.get("enabled") === "on";
  const cookie = await karenModeCookieHeader(on);
  // With JavaScript (a fetcher's request) the page stays where it is and just revalidates.
  if (new URL(request.url).searchParams.has("_data")) return json({ karenMode: on }, { headers: { "Set-Cookie": cookie } });
  return redirect(backTo(form.get("redirectTo")), { headers: { "Set-Cookie": cookie } });
}
