import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/auth/session.server";
import * as s from "~/components/admin/admin.css";
import * as ui from "~/styles/ui.css";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(null);
}

const EXPORTS = [
  { title: "Export Memories CSV", text: "Download all approved memories as a CSV file.", href: "/api/admin/export/memories.csv" },
  { title: "Export Contacts CSV", text: "Download contact information for thank-you notes.", href: "/api/admin/export/contacts.csv" },
];

export default function ExportsTab() {
  return (
    <>
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
