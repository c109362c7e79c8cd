import { randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { config } from "~/platform/config.server";

/**
 * A browser that lights a candle gets a random id of its own, kept a year,
 * so its candles count once a day. Only a hash of it is stored; no page
 * reads it, so it does not keep the visitor from the render cache
 * (app/server/render-cache.server.ts).
 */
export const CANDLE_VISITOR_COOKIE = "candle_visitor";

const candleVisitorCookie = createCookie(CANDLE_VISITOR_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.NODE_ENV === "production",
  maxAge: 365 * 24 * 60 * 60,
});

const VISITOR_ID = /^[0-9a-f]{32}$/;

/** This browser's id, or a new one with the Set-Cookie header that keeps it. */
export async function candleVisitor(request: Request): Promise<{ visitorId: string; setCookie: string | null }> {
  const stored: unknown = await candleVisitorCookie.parse(request.headers.get("Cookie"));
  if (typeof stored === "string" && VISITOR_ID.test(stored)) return { visitorId: stored, setCookie: null };
  const visitorId = randomBytes(16).toString("hex");
  return { visitorId, setCookie: await candleVisitorCookie.serialize(visitorId) };
}
