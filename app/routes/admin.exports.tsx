import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/auth/session.server";
import * as s from "~/components/admin/admin.css";
import { archiveContents } from "~/models/archive.server";
import * as ui from "~/styles/ui.css";
import { formatBytes } from "~/utils/bytes";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ archive: archiveContents() });
}

const EXPORTS = [
  { title: "Export Memories CSV", text: "Download all approved memories as a CSV file.", href: "/api/admin/export/memories.csv" },
  { title: "Export Contacts CSV", text: "Download contact information for thank-you notes.", href: "/api/admin/export/contacts.csv" },
];

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export default function ExportsTab() {
  const { archive } = useLoaderData<typeof loader>();
  return (
    <>
      <section className={s.exportCard} aria-labelledby="archive-title">
        <h2 id="archive-title" className={s.sectionTitle}>
          Download everything
        </h2>
        <p>
          One ZIP file to keep: every published photo and video exactly as it was sent, the guest book, the poems, attendance and contacts,
          with a page (index.html) that shows them all on any computer, without the internet.
        </p>
        <p>
          {`It holds ${count(archive.photos, "photo", "photos")} and ${count(archive.videos, "video", "videos")}, about ${formatBytes(archive.bytes)}.`}
        </p>
        {/* A plain link: the browser saves the file as it arrives. */}
        <a href="/admin/exports/archive.zip" className={ui.button.primary} download>
          Download everything
        </a>
      </section>
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
