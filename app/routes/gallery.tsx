import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment, useCallback, useState } from "react";
import { GalleryGrid, VideoModal } from "~/components/Gallery";
import { LinkSeparator } from "~/components/LinkSeparator";
import { ListPages, LoadMoreForm, useLoadMore } from "~/components/LoadMore";
import { GALLERY_PAGE_SIZE } from "~/media/limits";
import { json, listGallery, decodeCursor } from "~/routes/gallery.server";
import type { GalleryFilter, GalleryItem } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { itemsToShow, MAX_ITEMS_PER_PAGE } from "~/utils/paging";
import * as s from "./gallery.css";

/** What the gallery shows: photos and videos (voices have their place on the guest book). */
const PICTURES = ["IMAGE", "VIDEO"] as const;

const FILTERS: { type: GalleryFilter; label: string; href: string }[] = [
  { type: "ALL", label: "All", href: "/gallery" },
  { type: "IMAGE", label: "Photos", href: "/gallery?type=IMAGE" },
  { type: "VIDEO", label: "Videos", href: "/gallery?type=VIDEO" },
];

/** What the pages of each filter are called: "Earlier photos →". */
const KINDS: Record<Exclude<GalleryFilter, "AUDIO">, { plural: string; none: string }> = {
  ALL: { plural: "photos and videos", none: "photos or videos" },
  IMAGE: { plural: "photos", none: "photos" },
  VIDEO: { plural: "videos", none: "videos" },
};

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
  return json({ type, items: page.items, next: page.next, before: before ? params.get("before") : null });
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
  const kind = KINDS[type];
  const emptyText = before ? `No earlier ${kind.none}.` : `No ${type === "ALL" ? "media" : type.toLowerCase()} has been shared yet.`;
  const newest = before ? { to: FILTERS.find((filter) => filter.type === type)!.href, text: `← Newest ${kind.plural}` } : null;
  const earlier =
    more.next && full
      ? { to: `/gallery?${type === "ALL" ? "" : `type=${type}&`}before=${more.next}`, text: `Earlier ${kind.plural} →` }
      : null;

  return (
    <div className={ui.container}>
      <div className={ui.pageHeader}>
        <h1>Memory Gallery</h1>
        <p className={ui.subtitle}>Photos and videos shared by family and friends.</p>
      </div>
      <div className={s.toolbar}>
        <nav aria-label="Show" className={s.filters}>
          {FILTERS.map((filter, index) => (
            <Fragment key={filter.type}>
              {index > 0 ? <LinkSeparator /> : null}
              <Link
                to={filter.href}
                preventScrollReset
                aria-current={filter.type === type ? "page" : undefined}
                className={filter.type === type ? ui.button.primary : ui.button.secondary}
              >
                {filter.label}
              </Link>
            </Fragment>
          ))}
        </nav>
        <LinkSeparator />
        <Link to="/share" className={ui.button.primary}>
          Share Your Memory
        </Link>
      </div>
      <GalleryGrid items={more.items} emptyText={emptyText} onPlay={setPlaying} />
      {more.next && !full ? (
        <LoadMoreForm action={`/gallery#media-${shown + 1}`} offset={shown} status={more.status} onLoad={more.load} label="Load More">
          {type === "ALL" ? null : <input type="hidden" name="type" value={type} />}
          {before ? <input type="hidden" name="before" value={before} /> : null}
        </LoadMoreForm>
      ) : null}
      <ListPages label={`Pages of ${kind.plural}`} newest={newest} earlier={earlier} />
      {playing ? <VideoModal item={playing} onClose={close} /> : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, {
    title: "Memory Gallery",
    description: "Photos and videos shared by family and friends.",
    path: "/gallery",
  });
