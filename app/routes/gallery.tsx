import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useCallback, useState } from "react";
import { GalleryGrid, VideoModal } from "~/components/Gallery";
import { LoadMoreForm, useLoadMore } from "~/components/LoadMore";
import { GALLERY_PAGE_SIZE } from "~/media/limits";
import { listGallery } from "~/models/upload.server";
import type { GalleryFilter, GalleryItem } from "~/models/upload.schema";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/utils/meta";
import * as s from "./gallery.css";

/** How far "Load More" can reach without JavaScript. */
const MAX_OFFSET = 2000;

const FILTERS: { type: GalleryFilter; label: string; href: string }[] = [
  { type: "ALL", label: "All", href: "/gallery" },
  { type: "IMAGE", label: "Photos", href: "/gallery?type=IMAGE" },
  { type: "VIDEO", label: "Videos", href: "/gallery?type=VIDEO" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const requestedType = params.get("type")?.toUpperCase();
  const type: GalleryFilter = requestedType === "IMAGE" || requestedType === "VIDEO" ? requestedType : "ALL";
  const requested = Number(params.get("offset"));
  // Without JavaScript, "Load More" asks for the page at this offset and gets
  // everything up to it, in one list.
  const offset = Number.isSafeInteger(requested) && requested > 0 ? Math.min(requested, MAX_OFFSET) : 0;
  const items = listGallery({ type, limit: offset + GALLERY_PAGE_SIZE, offset: 0 });
  return json({ type, items, hasMore: items.length >= offset + GALLERY_PAGE_SIZE });
}

export default function GalleryPage() {
  const { type, items, hasMore } = useLoaderData<typeof loader>();
  const typeQuery = type === "ALL" ? "" : `&type=${type}`;
  const more = useLoadMore<GalleryItem>({
    initial: items,
    hasMore,
    pageSize: GALLERY_PAGE_SIZE,
    pageUrl: (offset) => `/api/gallery?limit=${GALLERY_PAGE_SIZE}&offset=${offset}${typeQuery}`,
  });
  const [playing, setPlaying] = useState<GalleryItem | null>(null);
  const close = useCallback(() => setPlaying(null), []);
  const offset = more.items.length;
  const emptyText = `No ${type === "ALL" ? "media" : type.toLowerCase()} has been shared yet.`;

  return (
    <div className={ui.container}>
      <div className={ui.pageHeader}>
        <h1>Memory Gallery</h1>
        <p className={ui.subtitle}>Photos and videos shared by family and friends.</p>
      </div>
      <div className={s.toolbar}>
        <nav aria-label="Show" className={s.filters}>
          {FILTERS.map((filter) => (
            <Link
              key={filter.type}
              to={filter.href}
              preventScrollReset
              aria-current={filter.type === type ? "page" : undefined}
              className={filter.type === type ? ui.button.primary : ui.button.secondary}
            >
              {filter.label}
            </Link>
          ))}
        </nav>
        <Link to="/share" className={ui.button.primary}>
          Share Your Memory
        </Link>
      </div>
      <GalleryGrid items={more.items} emptyText={emptyText} onPlay={setPlaying} />
      {more.hasMore ? (
        <LoadMoreForm action={`/gallery#media-${offset + 1}`} offset={offset} status={more.status} onLoad={more.load} label="Load More">
          {type === "ALL" ? null : <input type="hidden" name="type" value={type} />}
        </LoadMoreForm>
      ) : null}
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
