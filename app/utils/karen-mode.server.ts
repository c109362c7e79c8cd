import { createCookie } from "@remix-run/node";
import { config } from "~/config.server";

/** Karen Mode is the visitor's own choice, remembered for a year in their browser only. */
const karenModeCookie = createCookie("karen_mode", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  maxAge: 365 * 24 * 60 * 60,
});

export async function isKarenModeOn(request: Request): Promise<boolean> {
  return (await karenModeCookie.parse(request.headers.get("Cookie"))) === "on";
}

export function karenModeCookieHeader(on: boolean): Promise<string> {
  return karenModeCookie.serialize(on ? "on" : "off");
}
