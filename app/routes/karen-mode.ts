import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readFormData } from "~/platform/http.server";
import { karenModeCookieHeader } from "~/site/karen-mode.server";
import { safeRedirect } from "~/utils/safe-redirect";

export const loader = () => redirect("/");

/**
 * The footer's Karen Mode button: a plain form that flips the cookie and
 * returns to the same page's footer (only ever a page of this site), so the
 * party style works without JavaScript.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const on = form.get("enabled") === "on";
  const cookie = await karenModeCookieHeader(on);
  // With JavaScript the toggle's fetcher adds inPlace=yes: the page stays where it is and just revalidates.
  if (form.get("inPlace") === "yes") return json({ karenMode: on }, { headers: { "Set-Cookie": cookie } });
  // Back to the footer where the button is, so the visitor sees what changed (the red footer, the player).
  const back = safeRedirect(form.get("redirectTo"), "/").replace(/#.*$/, "");
  return redirect(`${back}#site-footer`, { headers: { "Set-Cookie": cookie } });
}
