// What the root layout shows in place of a list page while its data loads on
// client-side navigation. Kept apart from the lists themselves (and their
// date formatting), which every page would otherwise load with the layout,
// and loaded by the layout on the first navigation that needs one (never
// before the visitor does something: docs/decisions/017).
import * as ui from "~/styles/ui.css";
import * as gallery from "./Gallery.css";
import * as memories from "./Skeletons.css";
import * as poems from "./PoemList.css";
import { useT } from "./useT";

// Their words are the root's (forms.skeletons): the page's own have not come yet.

function MemoriesLoading() {
  const { t } = useT();
  return (
    <div className={ui.narrow} aria-busy="true">
      <div className={ui.pageHeader}>
        <h1>{t("forms.skeletons.guestbookTitle")}</h1>
        <p className={ui.subtitle}>{t("forms.skeletons.guestbookSubtitle")}</p>
      </div>
      <p role="status" className={memories.loading}>
        <span className={memories.spinner} aria-hidden="true" />
        {t("forms.skeletons.loadingMemories")}
      </p>
    </div>
  );
}

/** Grey tiles in the grid's shape while a page of media loads. */
function GalleryLoading() {
  const { t } = useT();
  return (
    <div className={ui.container}>
      <p role="status" className={ui.visuallyHidden}>
        {t("forms.skeletons.loadingGallery")}
      </p>
      <ul className={gallery.grid} aria-hidden="true">
        {Array.from({ length: 8 }, (_, index) => (
          <li key={index} className={gallery.skeleton} />
        ))}
      </ul>
    </div>
  );
}

function PoemsSkeleton() {
  const { t } = useT();
  return (
    <div className={ui.narrow} aria-busy="true">
      <div className={ui.pageHeader}>
        <h1>{t("forms.skeletons.poemsTitle")}</h1>
      </div>
      <p className={ui.visuallyHidden} role="status">
        {t("forms.skeletons.loadingPoems")}
      </p>
      <div className={poems.list} data-testid="poems-skeleton">
        {[0, 1, 2].map((i) => (
          <div key={i} className={poems.skeletonCard} aria-hidden="true">
            <div className={`${poems.skeletonLine.half} ${poems.skeletonTall}`} />
            <div className={poems.skeletonLine.third} />
            <div className={poems.skeletonLine.full} />
            <div className={poems.skeletonLine.full} />
            <div className={poems.skeletonLine.twoThirds} />
          </div>
        ))}
      </div>
    </div>
  );
}

/** The skeleton of the page at `path` (the layout's SKELETON_PATHS, app/root.tsx). */
export default function PendingSkeleton({ path }: { path: string }) {
  if (path === "/poems") return <PoemsSkeleton />;
  if (path === "/guestbook") return <MemoriesLoading />;
  if (path === "/gallery") return <GalleryLoading />;
  return null;
}
