import { useEffect, useRef } from "react";
import type { SlideshowItem } from "~/uploads/upload.schema";
import * as s from "./Slideshow.css";
import { SoundMark } from "./SoundMark";

// One item of the reception slideshow: a photo, a video playing muted, or a
// voice memory's card. The room hears nothing: a voice is its sender's name
// and its line, shown as long as a photo.

export type Say = (id: string, values?: Record<string, unknown>) => string;

const LABELS = { AUDIO: "slideshow.label.voice", VIDEO: "slideshow.label.video", IMAGE: "slideshow.label.photo" } as const;

/** What an item is and who shared it, as a screen reader says it (a photo's alt text): "Photo shared by Ann", "A voice memory from Ann". */
export const slideLabel = (t: Say, item: SlideshowItem) => t(LABELS[item.type], { name: item.senderName ?? t("slideshow.guest") });

interface SlideProps {
  item: SlideshowItem;
  /** On the screen (fading in), rather than fading out under the next one. */
  entering: boolean;
  paused: boolean;
  /** Alone in the show: a video starts again when it ends. */
  loop: boolean;
  onEnded: () => void;
  onFaded: () => void;
  /** The page's words. */
  t: Say;
}

/** A voice memory on the screen: a large, calm card with who it is from and their line. */
function VoiceCard({ item, t }: { item: SlideshowItem; t: Say }) {
  return (
    <div className={s.voiceCard}>
      <SoundMark className={s.voiceMark} />
      <p className={s.voiceTitle}>{slideLabel(t, item)}</p>
      {item.caption ? <p className={s.voiceLine}>“{item.caption}”</p> : null}
    </div>
  );
}

export function Slide({ item, entering, paused, loop, onEnded, onFaded, t }: SlideProps) {
  const video = useRef<HTMLVideoElement>(null);
  const playing = entering && !paused;
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    // Set as properties too: browsers only autoplay a video they know is muted.
    element.muted = true;
    element.defaultMuted = true;
    if (playing) void element.play().catch(() => {});
    else element.pause();
  }, [playing]);
  return (
    <figure
      className={entering ? `${s.slide} ${s.entering}` : s.slide}
      aria-hidden={entering ? undefined : true}
      onAnimationEnd={entering ? onFaded : undefined}
    >
      {item.type === "AUDIO" ? (
        <VoiceCard item={item} t={t} />
      ) : item.type === "VIDEO" && entering && item.videoUrl ? (
        <video
          ref={video}
          className={s.media}
          src={item.videoUrl}
          poster={item.posterUrl ?? undefined}
          muted
          autoPlay={!paused}
          playsInline
          loop={loop}
          preload="auto"
          aria-label={slideLabel(t, item)}
          onEnded={onEnded}
        />
      ) : (
        <img
          className={s.media}
          src={(item.type === "VIDEO" ? item.posterUrl : item.imageUrl) ?? undefined}
          alt={entering ? slideLabel(t, item) : ""}
        />
      )}
    </figure>
  );
}
