import { useEffect, useRef, type MouseEvent } from "react";
import { photoSrcSet, THUMBNAIL_WIDTH } from "~/media/web-sizes";
import type { GalleryItem } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { formatDuration } from "~/utils/time";
import * as s from "./Gallery.css";
import { itemTitle } from "~/uploads/item-title";
import type { Translator } from "~/i18n/words";

type Say = Translator["t"];

/** A tile's width: a sixth of the page on a large screen, half of a phone's (Gallery.css.ts's grid). */
const TILE_SIZES = "(min-width: 48rem) 12rem, 50vw";

/**
 * One tile. A photo opens full size in a new tab; a video opens the player:
 * a page of its own without JavaScript, the modal with it.
 */
function GalleryTile({ item, position, onPlay, t }: { item: GalleryItem; position: number; onPlay?: (item: GalleryItem) => void; t: Say }) {
  const title = itemTitle(t, item);
  const image = item.thumbnailUrl ?? (item.type === "IMAGE" ? item.url : null);
  const srcSet = item.type === "IMAGE" ? photoSrcSet(item.url, { url: item.thumbnailUrl, width: THUMBNAIL_WIDTH }) : undefined;
  const play = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onPlay || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onPlay(item);
  };
  return (
    <li className={s.tile} id={`media-${position}`}>
      {item.type === "IMAGE" ? (
        <a href={item.url} target="_blank" rel="noopener" className={s.link} aria-label={t("gallery.opensNewTab", { title })}>
          {image ? (
            <img src={image} srcSet={srcSet} sizes={srcSet ? TILE_SIZES : undefined} alt="" loading="lazy" className={s.image} />
          ) : (
            <span className={s.placeholder}>{t("gallery.photo")}</span>
          )}
          {/* The link's words for browsers that show no pictures (lynx reads no aria-label). */}
          <span className={ui.visuallyHidden}>{title}</span>
        </a>
      ) : (
        <a href={`/gallery/${item.id}`} onClick={play} className={s.link} aria-label={t("gallery.play", { title })}>
          {image ? (
            <img src={image} alt="" loading="lazy" className={s.image} />
          ) : (
            <span className={s.placeholder}>{t("gallery.video")}</span>
          )}
          {/* The title names the length already ("Video shared by Ben, 1:15"). */}
          <span className={ui.visuallyHidden}>{title}</span>
          <span className={s.playIcon} aria-hidden="true">
            ▶
          </span>
          {item.durationSec !== null ? (
            <span className={s.duration} aria-label={t("gallery.length", { length: formatDuration(item.durationSec) })}>
              {formatDuration(item.durationSec)}
            </span>
          ) : null}
        </a>
      )}
    </li>
  );
}

export function GalleryGrid({
  items,
  emptyText,
  onPlay,
  t,
}: {
  items: GalleryItem[];
  emptyText: string;
  onPlay?: (item: GalleryItem) => void;
  /** The page's words (the gallery's). */
  t: Say;
}) {
  if (items.length === 0) return <p className={ui.emptyState}>{emptyText}</p>;
  return (
    <ul className={s.grid} aria-label={t("gallery.gridLabel")}>
      {items.map((item, index) => (
        <GalleryTile key={item.id} item={item} position={index + 1} onPlay={onPlay} t={t} />
      ))}
    </ul>
  );
}

/** The video player in a modal: controls, autoplay, who shared it, its file name (the spec's) and a close button. */
export function VideoModal({ item, onClose, t }: { item: GalleryItem; onClose: () => void; t: Say }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = "";
      opener?.focus();
    };
  }, [onClose]);
  const title = itemTitle(t, item);
  return (
    // A click on the dimmed page around the player closes it, as a pointer user expects;
    // keyboard users have Escape (above) and the Close button, so no key handler is needed here.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div className={s.backdrop} onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby="video-modal-title" className={s.dialog}>
        <div className={s.dialogHeader}>
          <h2 id="video-modal-title" className={s.dialogTitle}>
            {title}
          </h2>
          <button ref={closeRef} type="button" className={ui.button.secondary} onClick={onClose}>
            {t("gallery.close")}
          </button>
        </div>
        {item.originalName ? <p className={s.dialogFileName}>{item.originalName}</p> : null}
        <video
          src={item.url}
          poster={item.thumbnailUrl ?? undefined}
          controls
          autoPlay
          playsInline
          className={s.video}
          onError={() => console.error(`The video "${title}" could not be loaded`)}
        >
          <a href={item.url}>{t("gallery.download", { title })}</a>
        </video>
      </div>
    </div>
  );
}
