import { useEffect, useRef } from "react";
import type { SlideshowItem } from "~/uploads/upload.schema";
import * as s from "./Slideshow.css";

// One item of the reception slideshow: a photo, a video playing muted, or a
// voice memory's card. The room hears nothing: a voice is its sender's name
// and its line, shown as long as a photo.

const sender = (item: SlideshowItem) => item.senderName ?? "a guest";

/** What an item is and who shared it, as a screen reader says it (a photo's alt text): "Photo shared by Ann", "A voice memory from Ann". */
export const slideLabel = (item: SlideshowItem) =>
  item.type === "AUDIO" ? `A voice memory from ${sender(item)}` : `${item.type === "VIDEO" ? "Video" : "Photo"} shared by ${sender(item)}`;

interface SlideProps {
  item: SlideshowItem;
  /** On the screen (fading in), rather than fading out under the next one. */
  entering: boolean;
  paused: boolean;
  /** Alone in the show: a video starts again when it ends. */
  loop: boolean;
  onEnded: () => void;
  onFaded: () => void;
}

/** A few bars of a sound, above a voice's card (decorative). */
function SoundMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={s.voiceMark}>
      <g fill="currentColor">
        <rect x="2" y="9.5" width="2.5" height="5" rx="1.25" />
        <rect x="6.5" y="6" width="2.5" height="12" rx="1.25" />
        <rect x="11" y="3" width="2.5" height="18" rx="1.25" />
        <rect x="15.5" y="7" width="2.5" height="10" rx="1.25" />
        <rect x="20" y="10" width="2.5" height="4" rx="1.25" />
      </g>
    </svg>
  );
}

/** A voice memory on the screen: a large, calm card with who it is from and their line. */
function VoiceCard({ item }: { item: SlideshowItem }) {
  return (
    <div className={s.voiceCard}>
      <SoundMark />
      <p className={s.voiceTitle}>{slideLabel(item)}</p>
      {item.caption ? <p className={s.voiceLine}>“{item.caption}”</p> : null}
    </div>
  );
}

export function Slide({ item, entering, paused, loop, onEnded, onFaded }: SlideProps) {
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
        <VoiceCard item={item} />
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
          aria-label={slideLabel(item)}
          onEnded={onEnded}
        />
      ) : (
        <img
          className={s.media}
          src={(item.type === "VIDEO" ? item.posterUrl : item.imageUrl) ?? undefined}
          alt={entering ? slideLabel(item) : ""}
        />
      )}
    </figure>
  );
}
