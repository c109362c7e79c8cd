// index.html of the family's archive: a page that opens from the unzipped
// folder, with no server, no network and no script. It is JSX rendered with
// renderToStaticMarkup (React escapes every name and message); every address
// on it is a relative path into the folder. A guest book of thousands is
// rendered and written a batch at a time, so memory stays flat; so are the
// voices and the gallery.

import { randomUUID } from "node:crypto";
import { Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { translate, type Translate } from "~/i18n/i18n.server";
import { LANGUAGE_TAGS, textDirection, type Language } from "~/i18n/languages";
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
  /** The language of the page's own words: the family's main language (English when not given). */
  language?: Language;
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

function MemoryCard({ memory, t }: { memory: KeepsakeMemory; t: Translate }) {
  return (
    <article className="card">
      <h3>{memory.name}</h3>
      <p className="muted">
        {memory.date}
        {memory.canDisplay ? "" : ` · ${t("keepsake.familyOnly")}`}
      </p>
      <p className="text">{memory.message}</p>
    </article>
  );
}

function PoemCard({ poem, t }: { poem: KeepsakePoem; t: Translate }) {
  return (
    <article className="card">
      <h3>{poem.title}</h3>
      {poem.author ? <p className="muted">{t("keepsake.poems.by", { author: poem.author })}</p> : null}
      <p className="text">{poem.content}</p>
      <p>
        <a href={fileHref(poem.file)}>{t("keepsake.poems.textFile")}</a>
      </p>
    </article>
  );
}

function MediaItem({ item, t }: { item: KeepsakeMedia; t: Translate }) {
  const label = t(item.type === "VIDEO" ? "keepsake.gallery.video" : "keepsake.gallery.photo", { title: item.title });
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
          <a href={fileHref(item.file)}>{t("keepsake.gallery.original")}</a>
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
            {t("keepsake.gallery.placeholder")}
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
  t,
}: {
  page: KeepsakePage;
  t: Translate;
  memories: ReactNode;
  voices: ReactNode;
  gallery: ReactNode;
}) {
  const { service, counts } = page;
  const language = page.language ?? "en";
  const count = (n: number) => n.toLocaleString(language === "en" ? "en-US" : LANGUAGE_TAGS[language]);
  return (
    <html lang={LANGUAGE_TAGS[language]} dir={language === "en" ? undefined : textDirection(language)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{t("keepsake.title", { name: page.personName })}</title>
        {/* Our own constant stylesheet: as it is, not escaped as text. */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <header>
          <p className="eyebrow">{page.siteTitle}</p>
          <h1>{page.personName}</h1>
          {page.heroSubtitle ? <p>{page.heroSubtitle}</p> : null}
        </header>
        <nav aria-label={t("keepsake.onThisPage")}>
          <ul>
            {page.life ? (
              <li>
                <a href="#life">{t("keepsake.nav.life")}</a>
              </li>
            ) : null}
            <li>
              <a href="#service">{t("keepsake.nav.service")}</a>
            </li>
            <li>
              <a href="#memories">{t("keepsake.nav.memories", { count: count(counts.memories) })}</a>
            </li>
            <li>
              <a href="#voices">{t("keepsake.nav.voices", { count: count(counts.voices) })}</a>
            </li>
            <li>
              <a href="#poems">{t("keepsake.nav.poems", { count: count(counts.poems) })}</a>
            </li>
            <li>
              <a href="#gallery">{t("keepsake.nav.gallery", { count: count(counts.photos + counts.videos) })}</a>
            </li>
          </ul>
        </nav>
        <main>
          {page.welcome.map((paragraph, i) => (
            <p key={i}>{paragraph}</p>
          ))}
          {page.life ? <LifeSection life={page.life} t={t} /> : null}
          <Section id="service" title={service.title}>
            <div className="card">
              <p>{service.over ? t("keepsake.serviceHeld", { date: service.dateText }) : service.dateText}</p>
              <p>
                {service.venueName}
                <br />
                {service.venueAddress}
              </p>
              {service.note ? <p>{service.note}</p> : null}
            </div>
          </Section>
          <Section id="memories" title={t("keepsake.memories.title")}>
            {counts.memories === 0 ? <p className="muted">{t("keepsake.memories.none")}</p> : memories}
          </Section>
          <Section id="voices" title={t("keepsake.voices.title")}>
            {page.voices.length === 0 ? (
              <p className="muted">{t("keepsake.voices.none")}</p>
            ) : (
              <>
                <p className="muted">{t("keepsake.voices.intro")}</p>
                {voices}
              </>
            )}
          </Section>
          <Section id="poems" title={t("keepsake.poems.title")}>
            {page.poems.length === 0 ? (
              <p className="muted">{t("keepsake.poems.none")}</p>
            ) : (
              page.poems.map((poem, i) => <PoemCard key={i} poem={poem} t={t} />)
            )}
          </Section>
          <Section id="gallery" title={t("keepsake.gallery.title")}>
            {page.media.length === 0 ? (
              <p className="muted">{t("keepsake.gallery.none")}</p>
            ) : (
              <>
                <p className="muted">{t("keepsake.gallery.intro")}</p>
                <ul className="grid">{gallery}</ul>
              </>
            )}
          </Section>
          <Section id="files" title={t("keepsake.files")}>
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
          <p>{t("keepsake.saved", { date: page.savedOn, ...counts })}</p>
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
  const t = translate(page.language ?? "en");
  const lists = [
    ...(page.counts.memories > 0 ? [renderedBatches(eachMemory(page), (memory) => <MemoryCard memory={memory} t={t} />)] : []),
    ...(page.voices.length > 0 ? [renderedBatches(page.voices, (voice) => <VoiceCard voice={voice} t={t} />)] : []),
    ...(page.media.length > 0 ? [renderedBatches(page.media, (item) => <MediaItem item={item} t={t} />)] : []),
  ];
  const pieces = renderToStaticMarkup(<KeepsakeDocument page={page} memories={marker} voices={marker} gallery={marker} t={t} />).split(
    marker,
  );
  if (pieces.length !== lists.length + 1) throw new Error("the keepsake page's lists were not where they belong");
  yield `<!DOCTYPE html>\n${pieces[0]!}`;
  for (const [i, list] of lists.entries()) {
    yield* list;
    yield pieces[i + 1]!;
  }
  yield "\n";
}
