import type { LoaderFunctionArgs } from "@remix-run/node";
import { MAX_QR_TEXT, qrCodeSvg } from "~/site/qr-code.server";
import { isQrCodeName, qrCodeAddress } from "~/utils/qr-codes";
import { getSiteView, sitePublicAddress } from "~/site/settings.server";
import { LANGUAGE_PARAM, isLanguage } from "~/i18n/languages";
import { publicOriginCacheControl, readOnlyAction } from "~/platform/http.server";

/** Kept a few minutes: setting PUBLIC_URL (a restart) shows soon enough. */
const QR_MAX_AGE_SECONDS = 300;

const plainText = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * GET /qr/{guestbook|share|home}.svg: a QR code of that page's address on
 * the site's public origin (PUBLIC_URL, else the Site tab's, else this request's), for the
 * printed cards and the family's own designs. Behind the visitor gate like
 * every page: on a private memorial it needs the passcode or an admin session.
 * `?lang=xx` (one of the family's languages): the address opens the site in it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const name = /^([a-z]+)\.svg$/.exec(params.file ?? "")?.[1] ?? "";
  if (!isQrCodeName(name)) return plainText(404, "There is no QR code by that name: try /qr/guestbook.svg, /qr/share.svg or /qr/home.svg.");
  const lang = new URL(request.url).searchParams.get(LANGUAGE_PARAM);
  if (lang !== null && !(isLanguage(lang) && getSiteView().languages.includes(lang)))
    return plainText(404, "This site is not written in that language: try one of the languages chosen in the Site tab.");
  const address = qrCodeAddress(sitePublicAddress(request), name, lang ?? undefined);
  // Only a made-up Host header makes the address this long.
  if (address.length > MAX_QR_TEXT) return plainText(400, "This site's address is too long for a QR code.");
  return new Response(await qrCodeSvg(address), {
    headers: {
      "Content-Type": "image/svg+xml",
      "Content-Disposition": `inline; filename="qr-${name}${lang ? `-${lang}` : ""}.svg"`,
      "Cache-Control": publicOriginCacheControl(QR_MAX_AGE_SECONDS),
    },
  });
}

export const action = readOnlyAction;
