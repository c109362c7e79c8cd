import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { requireFamily } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import { archiveContents } from "~/keepsakes/archive.server";
import { bookEstimate } from "~/keepsakes/book/memory-book.server";
import { getSafekeeping, type DatabaseSafekeeping, type MediaSafekeeping } from "~/keepsakes/safekeeping.server";
import * as ui from "~/styles/ui.css";
import { formatBytes } from "~/utils/bytes";
import { useSite } from "~/site/site-view";
import { formatDateTime } from "~/utils/time";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamily(request);
  return json({ archive: archiveContents(), safekeeping: getSafekeeping(), book: bookEstimate() });
}

const EXPORTS = [
  { title: "Export Memories CSV", text: "Download all approved memories as a CSV file.", href: "/api/admin/export/memories.csv" },
  { title: "Export Contacts CSV", text: "Download contact information for thank-you notes.", href: "/api/admin/export/contacts.csv" },
];

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "Last replicated: N seconds ago" (the words the operator's documentation uses), then what it means in plain words. */
function DatabaseCopies({ database }: { database: DatabaseSafekeeping }) {
  const { timeZone } = useSite();
  if (!database.replicated) {
    return (
      <>
        <p>
          <strong>The database is not replicated.</strong>
        </p>
        <p className={s.problem}>
          The guest book, attendance, poems and every approval are saved only on this machine&apos;s disk. If the machine fails, they are
          lost, apart from what you have downloaded below. Whoever looks after the site can have them copied to safe storage every second:
          the site&apos;s instructions for running it explain how, under “Backups”.
        </p>
      </>
    );
  }
  const seconds = database.secondsSinceReplicated;
  if (!database.known) {
    return (
      <>
        <p>
          <strong>Last replicated: unknown</strong>
        </p>
        <p>The state of the copying to safe storage cannot be read right now. If this lasts, please tell whoever looks after the site.</p>
        <p className={s.storageNote}>{`Safe storage: ${database.replica}`}</p>
      </>
    );
  }
  return (
    <>
      <p>
        <strong>{seconds === null ? "Last replicated: not yet" : `Last replicated: ${count(seconds, "second", "seconds")} ago`}</strong>
        {seconds !== null && seconds >= 120 ? ` (${database.sinceReplicatedWords})` : null}
      </p>
      {database.failingForWords ? (
        <p className={s.problem} role="alert">
          {`Copying to safe storage has not worked for ${database.failingForWords}. New memories are saved on this machine, but are not yet anywhere else. Please tell whoever looks after the site.`}
        </p>
      ) : (
        <p>
          {seconds === null
            ? "The first copy to safe storage is being made."
            : "Everything written here (messages, attendance, poems, approvals) is copied to safe storage within seconds. If this machine is ever lost, a new one brings it all back by itself."}
        </p>
      )}
      <p className={s.storageNote}>{`Safe storage: ${database.replica}`}</p>
      {database.restored ? (
        <p className={s.storageNote}>
          {`This machine started without the database and brought it back from safe storage on ${formatDateTime(database.restored.at, timeZone)}.`}
        </p>
      ) : null}
    </>
  );
}

function MediaCopies({ media }: { media: MediaSafekeeping }) {
  if (media.storage === "bucket") {
    return <p>{`Photos and videos are kept in the storage bucket "${media.bucket}", away from this machine.`}</p>;
  }
  return (
    <p className={s.problem}>
      Photos and videos exist only on this machine&apos;s disk: they are not copied anywhere else. Keep your own copy with Download
      everything below, and ask whoever looks after the site to keep them in a storage bucket: the site&apos;s instructions for running it
      explain how, under “Backups”.
    </p>
  );
}

const BOOK_SIZES = [
  { value: "a4", label: "A4" },
  { value: "letter", label: "US Letter" },
  { value: "trim", label: "6 × 9 in book, with 3 mm bleed (for print-on-demand services)" },
];

interface Making {
  done: number;
  total: number;
}

/** "3 photos and 1 video", and the voice memories when there are any: "3 photos, 1 video and 2 voice memories". */
function archiveHolds({ photos, videos, voices }: { photos: number; videos: number; voices: number }) {
  const media = [count(photos, "photo", "photos"), count(videos, "video", "videos")];
  if (voices === 0) return media.join(" and ");
  return `${media.join(", ")} and ${count(voices, "voice memory", "voice memories")}`;
}

type BookEstimate = { memories: number; voices: number; poems: number; photos: number; seconds: number };

/** "About 2 minutes for 140 memories, 3 voice memories, 2 poems and 60 photos." */
function bookTime({ memories, voices, poems, photos, seconds }: BookEstimate) {
  const parts = [
    count(memories, "memory", "memories"),
    ...(voices ? [count(voices, "voice memory", "voice memories")] : []),
    ...(poems ? [count(poems, "poem", "poems")] : []),
    count(photos, "photo", "photos"),
  ];
  const what = `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]!}`;
  const minutes = Math.ceil(seconds / 60);
  const time =
    seconds < 60
      ? "Less than a minute"
      : minutes < 90
        ? `About ${count(minutes, "minute", "minutes")}`
        : `About ${count(Math.round(minutes / 60), "hour", "hours")}`;
  return `${time} for ${what}.`;
}

/**
 * The memory book: a plain GET form, so without JavaScript the browser waits
 * and saves the PDF when it is ready. With JavaScript the download goes on
 * just the same, and this line says how far the making has got.
 */
function MemoryBook({ estimate }: { estimate: BookEstimate }) {
  const [making, setMaking] = useState<Making | "starting" | null>(null);
  const timer = useRef<number>();
  useEffect(() => () => window.clearInterval(timer.current), []);
  const follow = () => {
    window.clearInterval(timer.current);
    setMaking("starting");
    let seen = false;
    let idle = 0;
    timer.current = window.setInterval(() => {
      fetch("/admin/exports/book.json", { headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? (response.json() as Promise<{ making: Making | null }>) : { making: null }))
        .then(({ making: now }) => {
          if (now) {
            seen = true;
            setMaking(now);
          } else if (seen || ++idle > 5) {
            window.clearInterval(timer.current);
            setMaking(null);
          }
        })
        .catch(() => undefined);
    }, 1500);
  };
  return (
    <section className={s.exportCard} aria-labelledby="book-title">
      <h2 id="book-title" className={s.sectionTitle}>
        Memory book (PDF)
      </h2>
      <p>
        A book to print: the photo and name on the cover, the welcome and the service, every published memory, the voice memories shared
        with permission (each with a QR code that plays it), the poems, the photos with who shared them, and a QR code to this site. A long
        book takes a few minutes to make; the download starts when it is ready.
      </p>
      <p>{bookTime(estimate)}</p>
      <form method="get" action="/admin/exports/book.pdf" onSubmit={follow}>
        <fieldset>
          <legend>Page size</legend>
          {BOOK_SIZES.map((size, i) => (
            <label key={size.value} style={{ display: "block", padding: "0.4rem 0" }}>
              <input type="radio" name="size" value={size.value} defaultChecked={i === 0} /> {size.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className={ui.button.primary}>
          Make the memory book
        </button>
      </form>
      <p role="status" aria-live="polite">
        {making === "starting"
          ? "Making the book…"
          : making
            ? `Making the book: ${count(making.done, "item", "items")} of ${making.total.toLocaleString("en-US")} placed.`
            : null}
      </p>
    </section>
  );
}

export default function ExportsTab() {
  const { archive, safekeeping, book } = useLoaderData<typeof loader>();
  return (
    <>
      <section className={s.exportCard} aria-labelledby="safekeeping-title">
        <h2 id="safekeeping-title" className={s.sectionTitle}>
          Keeping the memories safe
        </h2>
        <DatabaseCopies database={safekeeping.database} />
        <MediaCopies media={safekeeping.media} />
      </section>
      <section className={s.exportCard} aria-labelledby="archive-title">
        <h2 id="archive-title" className={s.sectionTitle}>
          Download everything
        </h2>
        <p>
          One ZIP file to keep: every published photo, video and voice memory exactly as it was sent, the guest book, the poems, attendance
          and contacts, with a page (index.html) that shows and plays them all on any computer, without the internet. Voice memories sent
          for the family only are in it too.
        </p>
        <p>{`It holds ${archiveHolds(archive)}, about ${formatBytes(archive.bytes)}.`}</p>
        {/* A plain link: the browser saves the file as it arrives. */}
        <a href="/admin/exports/archive.zip" className={ui.button.primary} download>
          Download everything
        </a>
      </section>
      <MemoryBook estimate={book} />
      {EXPORTS.map((item) => (
        <section key={item.href} className={s.exportCard} aria-labelledby={item.href}>
          <h2 id={item.href} className={s.sectionTitle}>
            {item.title}
          </h2>
          <p>{item.text}</p>
          {/* A plain link: a file download, opened in a new tab as the spec has it. */}
          <a href={item.href} target="_blank" rel="noopener" className={ui.button.primary} download>
            {item.title}
          </a>
        </section>
      ))}
    </>
  );
}
