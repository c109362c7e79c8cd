import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { LifePhotoImage, StoryText, Timeline } from "~/components/LifeStory";
import * as s from "~/components/LifeStory.css";
import { getPublishedLife, translate, uploadedLifePhoto, visitorLanguage } from "./life.server";
import { firstSentence } from "~/life/story-text";
import { lifeLine } from "~/site/life-dates";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";
import * as ui from "~/styles/ui.css";

/** The family's life story: 404 until they publish it (a private site's gate comes first, as on every page). */
export async function loader({ request }: LoaderFunctionArgs) {
  const language = await visitorLanguage(request);
  const life = getPublishedLife(language);
  if (!life) throw new Response(null, { status: 404 });
  // The page's few words are sent whole, in the visitor's language: the page needs no translator of its own.
  const t = translate(language);
  return {
    life: { ...life, moments: life.moments.map((moment) => ({ ...moment, photoAlt: t("life.momentPhoto", { title: moment.title }) })) },
    uploadedPhoto: life.photo ? null : uploadedLifePhoto(),
    opening: firstSentence(life.story),
    text: { title: t("life.title"), timeline: t("life.timeline") },
  };
}

/** "Born … · Died …", each half kept on one line where it fits (a phone breaks at the dot). */
function LifeLine({ line }: { line: string }) {
  if (!line) return null;
  return (
    <p className={s.lifeLine}>
      {line.split(" · ").map((part, i) => (
        <Fragment key={part}>
          {i > 0 ? " · " : null}
          <span className={s.keepTogether}>{part}</span>
        </Fragment>
      ))}
    </p>
  );
}

export default function LifeStoryPage() {
  const { life, uploadedPhoto, text } = useLoaderData<typeof loader>();
  const site = useSite();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{text.title}</h1>
        <p className={ui.subtitle}>{site.personName}</p>
        <LifeLine line={lifeLine(site)} />
      </div>
      {life.photo ? (
        <figure className={s.photo}>
          <LifePhotoImage photo={life.photo} alt={`${site.personName}`} className={s.image} />
        </figure>
      ) : uploadedPhoto ? (
        <figure className={s.photo}>
          <picture>
            <source type="image/webp" srcSet={uploadedPhoto.srcSetWebp} sizes="(min-width: 48rem) 45rem, 100vw" />
            <img
              src={uploadedPhoto.src}
              srcSet={uploadedPhoto.srcSetJpeg}
              sizes="(min-width: 48rem) 45rem, 100vw"
              alt={site.personName}
              width={uploadedPhoto.width}
              height={uploadedPhoto.height}
              className={s.image}
            />
          </picture>
        </figure>
      ) : null}
      {life.story ? <StoryText story={life.story} /> : null}
      {life.moments.length > 0 ? (
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title" className={s.timelineTitle}>
            {text.timeline}
          </h2>
          <Timeline moments={life.moments} />
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data?.text.title ?? "Life Story", description: data?.opening || undefined, path: "/life" });
