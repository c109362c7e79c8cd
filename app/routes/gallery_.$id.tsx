import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { photoSrcSet } from "~/media/web-sizes";
import { getGalleryItem, invariantResponse, json, pageWords, redirect, visitorLanguage } from "~/routes/gallery_.$id.server";
import { translatorFromMatches, useT } from "~/components/useT";
import { itemTitle } from "~/uploads/item-title";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import * as s from "./gallery.css";

/** The photo fills the page's width, up to the content's (72rem). */
const PHOTO_SIZES = "(min-width: 72rem) 72rem, 100vw";

/** One published photo or video on a page of its own: the video player without JavaScript. */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = /^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : NaN;
  const item = Number.isSafeInteger(id) ? getGalleryItem(id) : undefined;
  invariantResponse(item, "Not found", { status: 404 });
  // A voice is heard on a page of its own.
  if (item.type === "AUDIO") return redirect(`/voices/${item.id}`, 301);
  return json({ item, words: pageWords(await visitorLanguage(request), ["gallery"]) });
}

export default function GalleryItemPage() {
  const { item } = useLoaderData<typeof loader>();
  // Who shared it, and a video's length: "Video shared by Ben, 1:15" (the file name is the family's, in the admin).
  const { t } = useT();
  const title = itemTitle(t, item);
  const srcSet = item.type === "IMAGE" ? photoSrcSet(item.url) : undefined;
  return (
    <div className={ui.container}>
      <div className={ui.pageHeader}>
        <h1>{title}</h1>
      </div>
      {item.type === "VIDEO" ? (
        <>
          {/* The web copy every browser plays (H.264 + AAC MP4), never the original. */}
          <video src={item.url} poster={item.thumbnailUrl ?? undefined} controls autoPlay playsInline className={s.player}>
            <a href={item.url}>{t("gallery.download", { title })}</a>
          </video>
          <p className={s.back}>
            <a href={item.url} download={`${(item.originalName ?? "video").replace(/\.[A-Za-z0-9]{2,4}$/, "")}.mp4`}>
              {t("gallery.downloadVideo")}
            </a>
          </p>
        </>
      ) : (
        <img src={item.url} srcSet={srcSet} sizes={srcSet ? PHOTO_SIZES : undefined} alt={title} className={s.photo} />
      )}
      <p className={s.back}>
        <Link to="/gallery" className={ui.button.secondary}>
          {t("gallery.back")}
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, {
    title: data ? itemTitle(t, data.item) : t("gallery.title"),
    path: data ? `/gallery/${data.item.id}` : "/gallery",
  });
};
