// index.html of the family's archive: a page that opens from the unzipped
// folder, with no server, no network and no script. It is JSX rendered with
// renderToStaticMarkup (React escapes every name and message); every address
// on it is a relative path into the folder. A guest book of thousands is
// rendered and written a batch at a time, so memory stays flat; so are the
// voices and the gallery.

import { randomUUID } from "node:crypto";
import { Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { fileHref, LifeSection, Section, VoiceCard, type KeepsakeLife, type KeepsakeVoice } from "./keepsake-parts.server";

export interface KeepsakeMemory {
  name: string;
  message: string;
  /** "August 31, 2025". */
  date: string;
  /** The author allowed it on the public guest book. */
  canDisplay: boolean;
}

interface KeepsakePoem {
  title: string;
  author: string | null;
  content: string;
  /** The poem's text file, relative to the page. */
  file: string;
}

export interface KeepsakeMedia {
  type: "IMAGE" | "VIDEO";
  title: string;
  sender: string;
  date: string;
  /** The original file, relative to the page. */
  file: string;
  thumbnail: string | null;
  /** A video's web copy (H.264 MP4, which every browser plays), relative to the page, or null: then the page plays the original. */
  webFile: string | null;
}

export type { KeepsakeLife, KeepsakeVoice };

export interface KeepsakePage {
  personName: string;
  siteTitle: string;
  heroSubtitle: string;
  service: { title: string; dateText: string; over: boolean; venueName: string; venueAddress: string; note: string };
  /** Paragraphs (the welcome message the site shows). */
  welcome: string[];
  /** The family's life story and timeline, or null when they wrote none. */
  life: KeepsakeLife | null;
  savedOn: string;
  counts: { memories: number; poems: number; photos: number; videos: number; voices: number };
  /** Read when their turn comes, in batches: a guest book of any length never sits in memory whole. */
  memories: Iterable<KeepsakeMemory[]>;
  poems: KeepsakePoem[];
  /** The published voice memories, those shared with the family only among them. */
  voices: KeepsakeVoice[];
  media: KeepsakeMedia[];
  /** The other files beside the page: the spreadsheets. */
  files: { href: string; label: string }[];
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

// Readable in any browser, old phones included, printed too; no web fonts, no images but the family's.
const STYLE = `
:root{color-scheme:light;--ink:#2b2520;--muted:#6b5f55;--line:#e4dcd3;--card:#fffdf9;--accent:#7a4b2a}
*{box-sizing:border-box}
body{margin:0;background:#f6f1ea;color:var(--ink);font:18px/1.6 Georgia,"Times New Roman",serif}
header,nav,main,footer{max-width:60rem;margin:0 auto;padding:1.5rem}
nav{padding-top:0;padding-bottom:0}
header{text-align:center;padding-top:3rem}
h1{font-size:2.4rem;line-height:1.2;margin:.25rem 0}
h2{font-size:1.6rem;margin:2.5rem 0 1rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
h3{font-size:1.15rem;margin:0 0 .25rem}
.eyebrow,.muted{color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:1rem 1.25rem;margin:0 0 1rem}
.card>:first-child{margin-top:0}.card>:last-child{margin-bottom:0}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0 0}
nav ul,.files{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}
a{color:var(--accent)}
.grid{list-style:none;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr))}
.grid li{background:var(--card);border:1px solid var(--line);border-radius:.5rem;overflow:hidden}
.grid a{display:block;text-decoration:none;color:inherit}
.grid img,.grid .none{display:block;width:100%;aspect-ratio:1/1;object-fit:cover;background:#e9e1d7}
.grid .none{display:flex;align-items:center;justify-content:center;color:var(--muted)}
.grid video{display:block;width:100%;aspect-ratio:1/1;background:#000}
.voice audio{display:block;width:100%;margin:.5rem 0}
.grid span,.grid small{display:block;padding:.25rem .6rem;overflow-wrap:anywhere}
.grid small{color:var(--muted);padding-top:0;padding-bottom:.6rem}
.timeline{list-style:none;padding:0}
.timeline li{border-left:3px solid var(--line);padding:0 0 0 1rem;margin:0 0 1.25rem;overflow-wrap:anywhere}
.timeline img{display:block;max-width:100%;width:16rem;height:auto;margin-top:.5rem}
footer{color:var(--muted);font-size:.9rem;text-align:center;padding-bottom:3rem}
@media print{body{background:#fff}.card,.grid li{break-inside:avoid}}
`;

/** How many memories, voices or pictures are rendered into one string before it is written. */
const RENDER_BATCH = 200;

function MemoryCard({ memory }: { memory: KeepsakeMemory }) {
  return (
    <article className="card">
      <h3>{memory.name}</h3>
      <p className="muted">
        {memory.date}
        {memory.canDisplay ? "" : " · shared with the family only"}
      </p>
      <p className="text">{memory.message}</p>
    </article>
  );
}

function PoemCard({ poem }: { poem: KeepsakePoem }) {
  return (
    <article className="card">
      <h3>{poem.title}</h3>
      {poem.author ? <p className="muted">By {poem.author}</p> : null}
      <p className="text">{poem.content}</p>
      <p>
        <a href={fileHref(poem.file)}>As a text file</a>
      </p>
    </article>
  );
}

function MediaItem({ item }: { item: KeepsakeMedia }) {
  const label = `${item.type === "VIDEO" ? "Video" : "Photo"}: ${item.title}`;
  if (item.type === "VIDEO") {
    // The web copy when there is one: an iPhone's HEVC original does not play in every browser.
    const plays = fileHref(item.webFile ?? item.file);
    return (
      <li>
        <video
          controls
          preload="metadata"
          playsInline
          src={plays}
          poster={item.thumbnail ? fileHref(item.thumbnail) : undefined}
          width={280}
          height={280}
        >
          <a href={plays}>{label}</a>
        </video>
        <span>{label}</span>
        <small>
          {`${item.sender} · ${item.date} · `}
          <a href={fileHref(item.file)}>The original file</a>
        </small>
      </li>
    );
  }
  return (
    <li>
      <a href={fileHref(item.file)}>
        {item.thumbnail ? (
          <img src={fileHref(item.thumbnail)} alt="" loading="lazy" width={280} height={280} />
        ) : (
          <span className="none" aria-hidden="true">
            Photo
          </span>
        )}
        <span>{label}</span>
      </a>
      <small>{`${item.sender} · ${item.date}`}</small>
    </li>
  );
}

/**
 * The whole page but its long lists: `memories`, `voices` and `gallery` stand
 * where the memory cards, the voices and the gallery's items go, when there are any.
 */
function KeepsakeDocument({
  page,
  memories,
  voices,
  gallery,
}: {
  page: KeepsakePage;
  memories: ReactNode;
  voices: ReactNode;
  gallery: ReactNode;
}) {
  const { service, counts } = page;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`In loving memory of ${page.personName}`}</title>
        {/* Our own constant stylesheet: as it is, not escaped as text. */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <header>
          <p className="eyebrow">{page.siteTitle}</p>
          <h1>{page.personName}</h1>
          {page.heroSubtitle ? <p>{page.heroSubtitle}</p> : null}
        </header>
        <nav aria-label="On this page">
          <ul>
            {page.life ? (
              <li>
                <a href="#life">Life story</a>
              </li>
            ) : null}
            <li>
              <a href="#service">The service</a>
            </li>
            <li>
              <a href="#memories">{`Memories (${counts.memories.toLocaleString("en-US")})`}</a>
            </li>
            <li>
              <a href="#voices">{`Voices (${counts.voices.toLocaleString("en-US")})`}</a>
            </li>
            <li>
              <a href="#poems">{`Poems and writings (${counts.poems.toLocaleString("en-US")})`}</a>
            </li>
            <li>
              <a href="#gallery">{`Photos and videos (${(counts.photos + counts.videos).toLocaleString("en-US")})`}</a>
            </li>
          </ul>
        </nav>
        <main>
          {page.welcome.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
          {page.life ? <LifeSection life={page.life} /> : null}
          <Section id="service" title={service.title}>
            <div className="card">
              <p>{service.over ? `The service was held on ${service.dateText}.` : service.dateText}</p>
              <p>
                {service.venueName}
                <br />
                {service.venueAddress}
              </p>
              {service.note ? <p>{service.note}</p> : null}
            </div>
          </Section>
          <Section id="memories" title="Memories from the guest book">
            {counts.memories === 0 ? <p className="muted">No memories were shared in the guest book.</p> : memories}
          </Section>
          <Section id="voices" title="Voices">
            {page.voices.length === 0 ? (
              <p className="muted">No voice memories were published.</p>
            ) : (
              <>
                <p className="muted">Each voice plays here, and opens its original recording, exactly as it was sent.</p>
                {voices}
              </>
            )}
          </Section>
          <Section id="poems" title="Poems and writings">
            {page.poems.length === 0 ? (
              <p className="muted">No poems or writings were added.</p>
            ) : (
              page.poems.map((poem, i) => <PoemCard key={i} poem={poem} />)
            )}
          </Section>
          <Section id="gallery" title="Photos and videos">
            {page.media.length === 0 ? (
              <p className="muted">No photos or videos were published in the gallery.</p>
            ) : (
              <>
                <p className="muted">
                  Each picture opens the file exactly as it was sent. Each video plays here, and opens its original file below.
                </p>
                <ul className="grid">{gallery}</ul>
              </>
            )}
          </Section>
          <Section id="files" title="The other files in this folder">
            <ul className="files">
              {page.files.map((file, i) => (
                <li key={i}>
                  <a href={fileHref(file.href)}>{file.label}</a>
                </li>
              ))}
            </ul>
          </Section>
        </main>
        <footer>
          <p>
            {`Saved from the memorial website on ${page.savedOn}: ${plural(counts.memories, "memory", "memories")}, ${plural(counts.poems, "poem", "poems")}, ${plural(counts.photos, "photo", "photos")}, ${plural(counts.videos, "video", "videos")} and ${plural(counts.voices, "voice memory", "voice memories")}.`}
          </p>
        </footer>
      </body>
    </html>
  );
}

/** `items` again, in arrays of `size` (the last one shorter). */
function* batchesOf<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

function* eachMemory(page: KeepsakePage): Generator<KeepsakeMemory> {
  for (const batch of page.memories) yield* batch;
}

/** Each batch of items as markup, rendered only when the one before has been taken. */
function* renderedBatches<T>(items: Iterable<T>, render: (item: T) => ReactNode): Generator<string> {
  for (const batch of batchesOf(items, RENDER_BATCH))
    yield renderToStaticMarkup(
      <>
        {batch.map((item, i) => (
          <Fragment key={i}>{render(item)}</Fragment>
        ))}
      </>,
    );
}

/** The page, a piece at a time (one batch of memories, voices or pictures at most). */
export function* keepsakePage(page: KeepsakePage): Generator<string> {
  // The document is rendered once with a marker where each long list goes, and cut there: the
  // marker is random, so nothing a visitor wrote can be it. The lists fill the cuts batch by batch.
  const marker = `\u0000${randomUUID()}\u0000`;
  const lists = [
    ...(page.counts.memories > 0 ? [renderedBatches(eachMemory(page), (memory) => <MemoryCard memory={memory} />)] : []),
    ...(page.voices.length > 0 ? [renderedBatches(page.voices, (voice) => <VoiceCard voice={voice} />)] : []),
    ...(page.media.length > 0 ? [renderedBatches(page.media, (item) => <MediaItem item={item} />)] : []),
  ];
  const pieces = renderToStaticMarkup(<KeepsakeDocument page={page} memories={marker} voices={marker} gallery={marker} />).split(marker);
  if (pieces.length !== lists.length + 1) throw new Error("the keepsake page's lists were not where they belong");
  yield `<!DOCTYPE html>\n${pieces[0]!}`;
  for (const [i, list] of lists.entries()) {
    yield* list;
    yield pieces[i + 1]!;
  }
  yield "\n";
}
