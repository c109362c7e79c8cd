import { createCookie } from "@remix-run/node";
import { config } from "~/platform/config.server";

/** Karen Mode is the visitor's own choice, remembered for a year in their browser only. */
const karenModeCookie = createCookie("karen_mode", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  maxAge: 365 * 24 * 60 * 60,
});

export async function isKarenModeOn(request: Request): Promise<boolean> {
  return isKarenModeOnIn(request.headers.get("Cookie"));
}

/** The same answer from a Cookie header alone (the render cache asks before Remix makes a Request). */
export async function isKarenModeOnIn(cookieHeader: string | null): Promise<boolean> {
  return (await karenModeCookie.parse(cookieHeader)) === "on";
}

export function karenModeCookieHeader(on: boolean): Promise<string> {
  return karenModeCookie.serialize(on ? "on" : "off");
}
