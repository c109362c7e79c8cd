import type { LifePhoto, MomentView } from "~/life/life.schema";
import { storyBlocks } from "~/life/story-text";
import { formatPartialDate, parsePartialDate } from "~/site/life-dates";
import * as s from "./LifeStory.css";

/** The family's story: headings, paragraphs and lists, always as text (app/life/story-text.ts). */
export function StoryText({ story }: { story: string }) {
  return (
    <div className={s.story}>
      {storyBlocks(story).map((block, index) =>
        block.type === "heading" ? (
          <h2 key={index} className={s.storyHeading}>
            {block.text}
          </h2>
        ) : block.type === "list" ? (
          <ul key={index}>
            {block.items.map((item, at) => (
              <li key={at}>{item}</li>
            ))}
          </ul>
        ) : (
          <p key={index} className={s.storyParagraph}>
            {block.lines.join("\n")}
          </p>
        ),
      )}
    </div>
  );
}

/** "1942", "March 1942" or "March 14, 1942", in a <time> with the date as the family gave it. */
export function PartialDate({ value, className }: { value: string; className?: string }) {
  const date = parsePartialDate(value);
  return (
    <time dateTime={value} className={className}>
      {date ? formatPartialDate(date) : value}
    </time>
  );
}

export function LifePhotoImage({ photo, alt, className }: { photo: LifePhoto; alt: string; className: string }) {
  return (
    <img
      src={photo.url}
      alt={alt}
      width={photo.width ?? undefined}
      height={photo.height ?? undefined}
      className={className}
      loading="lazy"
      decoding="async"
    />
  );
}

/** The timeline as an ordered list: a date, a title, a sentence and maybe a photo; readable as a list anywhere. */
export function Timeline({ moments }: { moments: (MomentView & { photo: LifePhoto | null; photoAlt: string })[] }) {
  return (
    <ol className={s.timeline}>
      {moments.map((moment) => (
        <li key={moment.id} className={s.moment}>
          <PartialDate value={moment.date} className={s.momentDate} />
          <h3 className={s.momentTitle}>{moment.title}</h3>
          {moment.text ? <p className={s.momentText}>{moment.text}</p> : null}
          {moment.photo ? <LifePhotoImage photo={moment.photo} alt={moment.photoAlt} className={s.momentPhoto} /> : null}
        </li>
      ))}
    </ol>
  );
}
