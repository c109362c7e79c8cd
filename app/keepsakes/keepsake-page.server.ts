// index.html of the family's archive: a page that opens from the unzipped
// folder, with no server, no network and no script. Everything on it is
// escaped here; every address on it is a relative path into the folder.

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

export interface KeepsakePage {
  personName: string;
  siteTitle: string;
  heroSubtitle: string;
  service: { title: string; dateText: string; over: boolean; venueName: string; venueAddress: string; note: string };
  /** Paragraphs (the welcome message the site shows). */
  welcome: string[];
  savedOn: string;
  counts: { memories: number; poems: number; photos: number; videos: number };
  /** Read when their turn comes, in batches: a guest book of any length never sits in memory whole. */
  memories: Iterable<KeepsakeMemory[]>;
  poems: KeepsakePoem[];
  media: KeepsakeMedia[];
  /** The other files beside the page: the spreadsheets. */
  files: { href: string; label: string }[];
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for HTML, in an element or an attribute. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** A relative address to a file in the folder: each part of the path encoded, so "#", "?" and "%" in names stay names. */
const fileHref = (path: string) => path.split("/").map(encodeURIComponent).join("/");

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
.grid span,.grid small{display:block;padding:.25rem .6rem;overflow-wrap:anywhere}
.grid small{color:var(--muted);padding-top:0;padding-bottom:.6rem}
footer{color:var(--muted);font-size:.9rem;text-align:center;padding-bottom:3rem}
@media print{body{background:#fff}.card,.grid li{break-inside:avoid}}
`;

function* section(id: string, title: string, body: Iterable<string>): Generator<string> {
  yield `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${escapeHtml(title)}</h2>`;
  yield* body;
  yield `</section>`;
}

function* memoriesBody(page: KeepsakePage): Generator<string> {
  if (page.counts.memories === 0) return void (yield `<p class="muted">No memories were shared in the guest book.</p>`);
  for (const batch of page.memories) {
    yield batch
      .map(
        (memory) =>
          `<article class="card"><h3>${escapeHtml(memory.name)}</h3><p class="muted">${escapeHtml(memory.date)}${
            memory.canDisplay ? "" : " · shared with the family only"
          }</p><p class="text">${escapeHtml(memory.message)}</p></article>`,
      )
      .join("\n");
  }
}

function* poemsBody(page: KeepsakePage): Generator<string> {
  if (page.poems.length === 0) return void (yield `<p class="muted">No poems or writings were added.</p>`);
  for (const poem of page.poems) {
    yield `<article class="card"><h3>${escapeHtml(poem.title)}</h3>${poem.author ? `<p class="muted">By ${escapeHtml(poem.author)}</p>` : ""}<p class="text">${escapeHtml(poem.content)}</p><p><a href="${escapeHtml(fileHref(poem.file))}">As a text file</a></p></article>`;
  }
}

function* galleryBody(page: KeepsakePage): Generator<string> {
  if (page.media.length === 0) return void (yield `<p class="muted">No photos or videos were published in the gallery.</p>`);
  yield `<p class="muted">Each picture opens the file exactly as it was sent. Each video plays here, and opens its original file below.</p><ul class="grid">`;
  for (const item of page.media) {
    const kind = item.type === "VIDEO" ? "Video" : "Photo";
    if (item.type === "VIDEO") {
      // The web copy when there is one: an iPhone's HEVC original does not play in every browser.
      const plays = escapeHtml(fileHref(item.webFile ?? item.file));
      const poster = item.thumbnail ? ` poster="${escapeHtml(fileHref(item.thumbnail))}"` : "";
      yield `<li><video controls preload="metadata" playsinline src="${plays}"${poster} width="280" height="280"><a href="${plays}">${kind}: ${escapeHtml(item.title)}</a></video><span>${kind}: ${escapeHtml(item.title)}</span><small>${escapeHtml(item.sender)} · ${escapeHtml(item.date)} · <a href="${escapeHtml(fileHref(item.file))}">The original file</a></small></li>`;
      continue;
    }
    const picture = item.thumbnail
      ? `<img src="${escapeHtml(fileHref(item.thumbnail))}" alt="" loading="lazy" width="280" height="280">`
      : `<span class="none" aria-hidden="true">${kind}</span>`;
    yield `<li><a href="${escapeHtml(fileHref(item.file))}">${picture}<span>${kind}: ${escapeHtml(item.title)}</span></a><small>${escapeHtml(item.sender)} · ${escapeHtml(item.date)}</small></li>`;
  }
  yield `</ul>`;
}

/** The page, a piece at a time (one batch of memories at most). */
export function* keepsakePage(page: KeepsakePage): Generator<string> {
  const { service, counts } = page;
  yield `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`In loving memory of ${page.personName}`)}</title><style>${STYLE}</style></head>
<body><header><p class="eyebrow">${escapeHtml(page.siteTitle)}</p><h1>${escapeHtml(page.personName)}</h1>${
    page.heroSubtitle ? `<p>${escapeHtml(page.heroSubtitle)}</p>` : ""
  }</header>
<nav aria-label="On this page"><ul><li><a href="#service">The service</a></li><li><a href="#memories">Memories (${counts.memories.toLocaleString("en-US")})</a></li><li><a href="#poems">Poems and writings (${counts.poems.toLocaleString("en-US")})</a></li><li><a href="#gallery">Photos and videos (${(counts.photos + counts.videos).toLocaleString("en-US")})</a></li></ul></nav>
<main>`;
  yield* page.welcome.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`);
  yield* section("service", service.title, [
    `<div class="card"><p>${escapeHtml(service.over ? `The service was held on ${service.dateText}.` : service.dateText)}</p>`,
    `<p>${escapeHtml(service.venueName)}<br>${escapeHtml(service.venueAddress)}</p>`,
    service.note ? `<p>${escapeHtml(service.note)}</p>` : "",
    `</div>`,
  ]);
  yield* section("memories", "Memories from the guest book", memoriesBody(page));
  yield* section("poems", "Poems and writings", poemsBody(page));
  yield* section("gallery", "Photos and videos", galleryBody(page));
  yield* section("files", "The other files in this folder", [
    `<ul class="files">${page.files.map((file) => `<li><a href="${escapeHtml(fileHref(file.href))}">${escapeHtml(file.label)}</a></li>`).join("")}</ul>`,
  ]);
  yield `</main><footer><p>${escapeHtml(
    `Saved from the memorial website on ${page.savedOn}: ${plural(counts.memories, "memory", "memories")}, ${plural(counts.poems, "poem", "poems")}, ${plural(counts.photos, "photo", "photos")} and ${plural(counts.videos, "video", "videos")}.`,
  )}</p></footer></body></html>
`;
}
