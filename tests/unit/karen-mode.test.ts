import { describe, expect, it } from "vitest";
import { action } from "~/routes/karen-mode";
import { isKarenModeOn } from "~/site/karen-mode.server";

function press(fields: Record<string, string>) {
  const request = new Request("http://x/karen-mode", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  return action({ request, params: {}, context: {} }) as Promise<Response>;
}

const cookieFrom = (response: Response) => response.headers.get("Set-Cookie")!.split(";")[0]!;
const withCookie = (cookie: string) => new Request("http://x/", { headers: { Cookie: cookie } });

describe("the Karen Mode button", () => {
  it("without JavaScript sets the cookie and returns to the same page", async () => {
    const on = await press({ enabled: "on", redirectTo: "/poems?x=1" });
    expect(on.status).toBe(302);
    expect(on.headers.get("Location")).toBe("/poems?x=1#site-footer");
    expect(on.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    expect(await isKarenModeOn(withCookie(cookieFrom(on)))).toBe(true);
    const off = await press({ enabled: "off", redirectTo: "/poems" });
    expect(await isKarenModeOn(withCookie(cookieFrom(off)))).toBe(false);
  });

  it("never puts raw control or non-ASCII characters into the redirect", async () => {
    expect((await press({ enabled: "on", redirectTo: "/a\r\nSet-Cookie: x=1" })).headers.get("Location")).toBe("/#site-footer");
    expect((await press({ enabled: "on", redirectTo: "/😀?q=é" })).headers.get("Location")).toBe("/%F0%9F%98%80?q=%C3%A9#site-footer");
  });

  it("never sends the visitor to another site", async () => {
    const offSite = ["//evil.example/", "https://evil.example/", "/\\evil.example", "poems"];
    // Paths the URL parser turns into "//evil.example/…" once it removes the dot segment.
    const dotted = ["/.//evil.example/phish", "/..//evil.example/phish", "/%2e//evil.example/phish", "/a/../..//evil.example"];
    for (const redirectTo of [...offSite, ...dotted]) {
      expect((await press({ enabled: "on", redirectTo })).headers.get("Location"), redirectTo).toBe("/#site-footer");
    }
  });

  it("with JavaScript answers in place (no redirect) with the new state", async () => {
    // The toggle's fetcher sends inPlace=yes (Remix strips its own _data parameter before the action sees the request).
    const response = await press({ enabled: "on", redirectTo: "/", inPlace: "yes" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ karenMode: true });
    expect(await isKarenModeOn(withCookie(cookieFrom(response)))).toBe(true);
  });
});
