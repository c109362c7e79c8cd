import { Link } from "@remix-run/react";
import type { ReadableBy } from "~/admins/contact-details";
import type { AdminMemory } from "~/guestbook/memory.schema";
import * as s from "./admin.css";
import { ModerationButtons } from "./ModerationButtons";
import * as ui from "~/styles/ui.css";
import { useAdminRole } from "./admin-role";

/** Where this page of the waiting memories sits among them all. */
interface PendingPage {
  /** The cursor of the next page, null on the last. */
  next: string | null;
  total: number;
  /** Whether this page continues from an earlier one. */
  continued: boolean;
}

/** Enough of a message to decide on most without opening it: whole up to 400 characters, else cut at a word near there. */
const SHOWN_CHARACTERS = 400;
function shortened(message: string) {
  if (message.length <= SHOWN_CHARACTERS) return message;
  const cut = message.slice(0, SHOWN_CHARACTERS);
  const space = cut.lastIndexOf(" ");
  return `${(space > SHOWN_CHARACTERS * 0.75 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The waiting memories as the admin reads them: a helper's have no e-mail address (app/admins/contact-details.ts), and no column for one. */
type PendingMemory = ReadableBy<AdminMemory>;

/**
 * The waiting memories, a page at a time. `showAll`: the family asked to see
 * what waits for their helpers (?show=all), and every link and form keeps it.
 */
export function PendingMemories({ memories, page, showAll = false }: { memories: PendingMemory[]; page?: PendingPage; showAll?: boolean }) {
  if (memories.length === 0 && !page?.continued) return <p className={ui.emptyState}>No pending memories to review.</p>;
  const list = showAll ? "/admin?show=all" : "/admin";
  return (
    <>
      <PendingTable memories={memories} action={showAll ? "/admin?index&show=all" : "/admin?index"} />
      {page && (page.next || page.continued) ? (
        <nav aria-label="More pending memories" className={s.actions}>
          <p>
            {memories.length} shown of {page.total} waiting, oldest first.
          </p>
          {page.continued ? (
            <Link to={list} className={ui.button.secondary}>
              Back to the oldest
            </Link>
          ) : null}
          {page.next ? (
            <Link to={`${list}${showAll ? "&" : "?"}after=${page.next}`} className={ui.button.secondary}>
              Next memories waiting
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

function PendingTable({ memories, action }: { memories: PendingMemory[]; action: string }) {
  const withEmail = memories.some((memory) => memory.email !== undefined);
  // A helper's rejection is set aside for the family: her button says so.
  const reject = useAdminRole() === "helper" ? "Set aside" : "Reject";
  return (
    <div className={s.tableWrap}>
      <table className={s.table}>
        <caption className={ui.visuallyHidden}>Pending memories</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {withEmail ? <th scope="col">Email</th> : null}
            <th scope="col">Message</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {memories.map((memory) => (
            <tr key={memory.id}>
              <td data-label="Name">{memory.name}</td>
              {withEmail ? <td data-label="Email">{memory.email}</td> : null}
              <td data-label="Message" className={s.truncate} title={memory.message}>
                {shortened(memory.message)}
              </td>
              <td data-label="Actions">
                <div className={s.actions}>
                  <Link
                    to={`/admin/memories/${memory.id}`}
                    className={ui.button.secondary}
                    preventScrollReset
                    aria-label={`View the memory from ${memory.name}`}
                  >
                    View
                  </Link>
                  <ModerationButtons id={memory.id} action={action} labels={{ approve: "Approve", reject }} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
