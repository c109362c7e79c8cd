import { photoSrcSet, THUMBNAIL_WIDTH } from "~/media/web-sizes";
import type { AdminUpload } from "~/uploads/upload.schema";
import * as s from "./admin.css";

/** A card's width: a column of the cards' grid (admin.css.ts) on a large screen, nearly the whole phone on a small one. */
const CARD_SIZES = "(min-width: 48rem) 20rem, 92vw";

/**
 * The picture of an upload in the admin's lists: its thumbnail, with the
 * gallery's larger copies to choose from (`srcset`), so a photo is sharp on
 * a 2× screen too.
 */
export function AdminThumbnail({ upload }: { upload: Pick<AdminUpload, "type" | "url" | "thumbnailUrl"> }) {
  if (!upload.thumbnailUrl) return null;
  const srcSet = upload.type === "IMAGE" ? photoSrcSet(upload.url, { url: upload.thumbnailUrl, width: THUMBNAIL_WIDTH }) : undefined;
  return (
    <img src={upload.thumbnailUrl} srcSet={srcSet} sizes={srcSet ? CARD_SIZES : undefined} alt="" className={s.thumb} loading="lazy" />
  );
}
