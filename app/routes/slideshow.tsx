import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Slideshow } from "~/components/Slideshow";
import {
  getAdmin,
  json,
  listSlideshow,
  loaderCacheControl,
  NO_STORE,
  pageWords,
  publicAddressCheck,
  visitorLanguage,
} from "~/routes/slideshow.server";
import { translatorFromMatches } from "~/components/useT";
import type { RouteHandle } from "~/root";
import { pageMeta } from "~/site/meta";
import { qrCodeSrc, QR_CODES } from "~/utils/qr-codes";
import { useSite } from "~/site/site-view";
import { slideshowWarning, slideshowWarningText } from "./slideshow.css";
import { EMPTY_REFRESH_SECONDS, slideSeconds, slideshowHref, slideshowParams } from "~/uploads/slideshow";

// /slideshow: the published photos and videos, one after another, on a
// projector or TV at the reception (?every=N seconds, ?qr=1 for the "Add
// your photos" corner). Without JavaScript it is one item per page, and the
// page refreshes itself to the next (?at=N), round and round; the
// Slideshow component makes it a live rotation.

export const handle: RouteHandle = {
  bare: true,
  noScriptRefresh: (data) => (data as SerializeFrom<typeof loader> | undefined)?.refresh ?? null,
};

export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  const { at: asked, ...options } = slideshowParams(new URL(request.url).searchParams);
  const items = listSlideshow();
  const count = items.length;
  // Past the end (an item was deleted meanwhile): round to the start.
  const at = asked < count ? asked : 0;
  const item = items[at] ?? null;
  const address = publicAddressCheck(request);
  // Only an admin is warned that the QR corner's address will not open for guests (visitors never see it).
  const addressWarning = options.qr && address.problem && (await getAdmin(request)) ? address : null;
  const to = (by: number, paused = options.paused) => slideshowHref({ ...options, paused, at: count ? (at + by + count) % count : 0 });
  return json(
    {
      item,
      at,
      count,
      every: options.every,
      paused: options.paused,
      links: { previous: to(-1), next: to(1), pause: to(0, true), play: to(0, false) },
      refresh: options.paused ? null : { seconds: item ? slideSeconds(item, options.every) : EMPTY_REFRESH_SECONDS, url: to(1) },
      share: options.qr
        ? {
            qrSrc: qrCodeSrc("share"),
            address: `${new URL(address.address).host}${QR_CODES.share.path}`,
          }
        : null,
      addressWarning,
      words: pageWords(await visitorLanguage(request), ["slideshow"]),
    },
    { headers: { "Cache-Control": NO_STORE } },
  );
}

export default function SlideshowPage() {
  const data = useLoaderData<typeof loader>();
  const site = useSite();
  return (
    <>
      {data.addressWarning?.problem ? (
        <div className={slideshowWarning}>
          {/* For an admin only (the loader never sends it to visitors); kept small, as the page is a visitor's too. */}
          <p role="note" aria-label="Check the site's address" className={slideshowWarningText}>
            <strong>Guests may not be able to open {new URL(data.addressWarning.address).host}</strong> from the QR code.{" "}
            <a href="/admin/site#address">Set the site&apos;s public address</a>
          </p>
        </div>
      ) : null}
      <Slideshow
        initial={data.item}
        position={data.at}
        count={data.count}
        every={data.every}
        paused={data.paused}
        links={data.links}
        personName={site.personName}
        share={data.share}
      />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("slideshow.title"), description: t("slideshow.description"), path: "/slideshow" });
};
