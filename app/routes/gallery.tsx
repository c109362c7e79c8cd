import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment, useCallback, useState } from "react";
import { GalleryGrid, VideoModal } from "~/components/Gallery";
import { LinkSeparator } from "~/components/LinkSeparator";
import { ListPages, LoadMoreForm, useLoadMore } from "~/components/LoadMore";
import { GALLERY_PAGE_SIZE } from "~/media/limits";
import { json, listGallery, decodeCursor, pageWords, visitorLanguage } from "~/routes/gallery.server";
import { translatorFromMatches, useT } from "~/components/useT";
import type { GalleryFilter, GalleryItem } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { itemsToShow, MAX_ITEMS_PER_PAGE } from "~/utils/paging";
import * as s from "./gallery.css";

/** What the gallery shows: photos and videos (voices have their place on the guest book). */
const PICTURES = ["IMAGE", "VIDEO"] as const;

/** The filters, with the name of their words in the catalog (`gallery.filters.all`, and "Earlier photos →" as `gallery.kinds.image.earlier`). */
const FILTERS: { type: Exclude<GalleryFilter, "AUDIO">; words: "all" | "image" | "video"; href: string }[] = [
  { type: "ALL", words: "all", href: "/gallery" },
  { type: "IMAGE", words: "image", href: "/gallery?type=IMAGE" },
  { type: "VIDEO", words: "video", href: "/gallery?type=VIDEO" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const requestedType = params.get("type")?.toUpperCase();
  const type: Exclude<GalleryFilter, "AUDIO"> = requestedType === "IMAGE" || requestedType === "VIDEO" ? requestedType : "ALL";
  // Without JavaScript, "Load More" asks for the page again with `offset` (how
  // many it shows) and gets everything up to the next twenty, in one grid, up
  // to MAX_ITEMS_PER_PAGE; then "Earlier … →" starts a page after the last one
  // shown (`before`). A cursor this site did not write counts as the newest page.
  const before = decodeCursor(params.get("before") ?? "") ?? undefined;
  // "All" is every photo and video: voices are heard on the guest book, not seen here.
  const page = listGallery({ type: type === "ALL" ? PICTURES : type, limit: itemsToShow(params.get("offset"), GALLERY_PAGE_SIZE), before });
  return json({
    type,
    items: page.items,
    next: page.next,
    before: before ? params.get("before") : null,
    words: pageWords(await visitorLanguage(request), ["gallery"]),
  });
}

export default function GalleryPage() {
  const { type, items, next, before } = useLoaderData<typeof loader>();
  const typeQuery = `&type=${type === "ALL" ? PICTURES.join(",") : type}`;
  const more = useLoadMore<GalleryItem>({
    initial: items,
    next,
    pageUrl: (cursor) => `/api/gallery?limit=${GALLERY_PAGE_SIZE}&before=${cursor}${typeQuery}`,
  });
  const [playing, setPlaying] = useState<GalleryItem | null>(null);
  const close = useCallback(() => setPlaying(null), []);
  const shown = more.items.length;
  const full = shown >= MAX_ITEMS_PER_PAGE;
  const { t } = useT();
  const chosen = FILTERS.find((filter) => filter.type === type)!;
  const kind = (name: string) => t(`gallery.kinds.${chosen.words}.${name}`);
  const emptyText = before ? kind("noEarlier") : kind("empty");
  const newest = before ? { to: chosen.href, text: kind("newest") } : null;
  const earlier =
    more.next && full ? { to: `/gallery?${type === "ALL" ? "" : `type=${type}&`}before=${more.next}`, text: kind("earlier") } : null;

  return (
    <div className={ui.container}>
      <div className={ui.pageHeader}>
        <h1>{t("gallery.title")}</h1>
        <p className={ui.subtitle}>{t("gallery.description")}</p>
      </div>
      <div className={s.toolbar}>
        <nav aria-label={t("gallery.show")} className={s.filters}>
          {FILTERS.map((filter, index) => (
            <Fragment key={filter.type}>
              {index > 0 ? <LinkSeparator /> : null}
              <Link
                to={filter.href}
                preventScrollReset
                aria-current={filter.type === type ? "page" : undefined}
                className={filter.type === type ? ui.button.primary : ui.button.secondary}
              >
                {t(`gallery.filters.${filter.words}`)}
              </Link>
            </Fragment>
          ))}
        </nav>
        <LinkSeparator />
        <Link to="/share" className={ui.button.primary}>
          {t("gallery.shareYourMemory")}
        </Link>
      </div>
      <GalleryGrid items={more.items} emptyText={emptyText} onPlay={setPlaying} t={t} />
      {more.next && !full ? (
        <LoadMoreForm
          action={`/gallery#media-${shown + 1}`}
          offset={shown}
          status={more.status}
          onLoad={more.load}
          label={t("gallery.loadMore")}
        >
          {type === "ALL" ? null : <input type="hidden" name="type" value={type} />}
          {before ? <input type="hidden" name="before" value={before} /> : null}
        </LoadMoreForm>
      ) : null}
      <ListPages label={kind("pages")} newest={newest} earlier={earlier} />
      {playing ? <VideoModal item={playing} onClose={close} t={t} /> : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("gallery.title"), description: t("gallery.description"), path: "/gallery" });
};
