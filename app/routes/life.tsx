import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LifePhotoImage, StoryText, Timeline } from "~/components/LifeStory";
import * as s from "~/components/LifeStory.css";
import { getPublishedLife } from "~/life/life.server";
import { firstSentence } from "~/life/story-text";
import { lifeLine } from "~/site/life-dates";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";
import * as ui from "~/styles/ui.css";

/** The family's life story: 404 until they publish it (a private site's gate comes first, as on every page). */
export async function loader() {
  const life = getPublishedLife();
  if (!life) throw new Response(null, { status: 404 });
  return { life, opening: firstSentence(life.story) };
}

export default function LifeStoryPage() {
  const { life } = useLoaderData<typeof loader>();
  const site = useSite();
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Life Story</h1>
        <p className={ui.subtitle}>{site.personName}</p>
        {lifeLine(site) ? <p className={s.lifeLine}>{lifeLine(site)}</p> : null}
      </div>
      {life.photo ? (
        <figure className={s.photo}>
          <LifePhotoImage photo={life.photo} alt={`${site.personName}`} className={s.image} />
        </figure>
      ) : null}
      {life.story ? <StoryText story={life.story} /> : null}
      {life.moments.length > 0 ? (
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title" className={s.timelineTitle}>
            Timeline
          </h2>
          <Timeline moments={life.moments} />
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: "Life Story", description: data?.opening || undefined, path: "/life" });
