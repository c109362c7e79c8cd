import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { DIALOG_TITLE_ID } from "~/components/AdminDialog";
import type { WithoutContactDetails } from "~/admins/contact-details";
import type { AdminMemory } from "~/guestbook/memory.schema";
import type { AdminUpload } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { formatDateTime } from "~/utils/time";
import * as f from "../forms.css";
import * as s from "./admin.css";
import { AdminThumbnail } from "./AdminThumbnail";
import { VoiceNotes, VoicePanel } from "./AdminVoice";
import { UPLOAD_KIND, uploadName } from "~/uploads/upload-words";
import { useAdminRole } from "./admin-role";

// The Published view: what visitors see and what the family has taken back,
// newest first, with a search by name and pages of their own. Every action
// works without JavaScript: Unpublish and Publish again are plain forms,
// Edit and Delete are links to pages (dialogs with JavaScript) that ask first.
// A helper's Delete is "Set aside": the family keeps what she takes away.

/** The word of the Delete link: a helper's delete is set aside for the family. */
const useDeleteWord = () => (useAdminRole() === "helper" ? "Set aside" : "Delete");

/** The two lists of the Published view, as tabs that are links. */
export function PublishedTabs() {
  const { pathname } = useLocation();
  const tabs = [
    { to: "/admin/published/memories", label: "Memories" },
    { to: "/admin/published/uploads", label: "Photos, videos and voices" },
  ];
  return (
    <nav aria-label="Published" className={s.subTabs}>
      {tabs.map((tab) => {
        const active = pathname.startsWith(tab.to);
        return (
          <Link
            key={tab.to}
            to={tab.to}
            className={active ? `${s.tab} ${s.activeTab}` : s.tab}
            aria-current={active ? "page" : undefined}
            prefetch="none"
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}

/** The search by name: a GET form, so it works and can be bookmarked without JavaScript. */
export function PublishedSearch({ base, search, label }: { base: string; search: string | undefined; label: string }) {
  return (
    <Form method="get" action={base} className={s.searchForm} role="search">
      <div className={s.searchField}>
        <label htmlFor="published-search" className={f.label}>
          {label}
        </label>
        <input id="published-search" type="search" name="q" defaultValue={search ?? ""} maxLength={100} className={f.input} />
      </div>
      <button type="submit" className={ui.button.secondary}>
        Search
      </button>
      {search ? (
        <Link to={base} className={ui.button.secondary}>
          Show all
        </Link>
      ) : null}
    </Form>
  );
}

/** Links to the newest page and the next, older one. */
export function PublishedPager({
  base,
  search,
  before,
  next,
  olderLabel,
}: {
  base: string;
  search: string | undefined;
  before: string | undefined;
  next: string | null;
  olderLabel: string;
}) {
  if (!before && !next) return null;
  const address = (cursor?: string) => {
    const query = new URLSearchParams();
    if (search) query.set("q", search);
    if (cursor) query.set("before", cursor);
    const text = query.toString();
    return text ? `${base}?${text}` : base;
  };
  return (
    <nav aria-label="Pages" className={s.pager}>
      {before ? <Link to={address()}>← Newest first</Link> : <span />}
      {next ? <Link to={address(next)}>{olderLabel} →</Link> : null}
    </nav>
  );
}

/** Unpublish (a published item) or Publish again (a hidden one): one plain form. */
function PublishToggle({ id, hidden, action, what }: { id: number; hidden: boolean; action: string; what: string }) {
  return (
    <Form method="post" action={action} preventScrollReset>
      <input type="hidden" name="id" value={id} />
      {hidden ? (
        <button type="submit" name="intent" value="publish" className={ui.button.primary} aria-label={`Publish again ${what}`}>
          Publish again
        </button>
      ) : (
        <button type="submit" name="intent" value="unpublish" className={ui.button.secondary} aria-label={`Unpublish ${what}`}>
          Unpublish
        </button>
      )}
    </Form>
  );
}

/** Whether visitors see it. */
function PublishedState({ hidden }: { hidden: boolean }) {
  return hidden ? <span className={s.hiddenBadge}>Hidden from visitors</span> : <span className={s.badge}>Published</span>;
}

/** When a hidden item was unpublished, and by whom (its last moderation: publishing again replaces it). */
function unpublishedWords(item: { status: string; moderatedBy: string | null; moderatedAt: string | null }, timeZone: string) {
  if (item.status !== "HIDDEN" || !item.moderatedAt) return null;
  return `Unpublished${item.moderatedBy ? ` by ${item.moderatedBy}` : ""} on ${formatDateTime(item.moderatedAt, timeZone)}`;
}

/** What the Published view shows of a memory: never how to reach its author (a helper's copy has no such fields). */
type ListedMemory = WithoutContactDetails<AdminMemory>;

/** "Edited by anna on Aug 31, 2025, 4:05 PM", opening to what the visitor sent. */
export function EditedRecord({ memory, timeZone }: { memory: ListedMemory; timeZone: string }): ReactNode {
  if (!memory.editedAt) return null;
  return (
    <details className={s.editedNote}>
      <summary>
        Edited{memory.editedBy ? ` by ${memory.editedBy}` : ""} on {formatDateTime(memory.editedAt, timeZone)}
      </summary>
      <p className={s.cardText}>As the visitor sent it:</p>
      <p className={s.cardText}>
        <strong>{memory.originalName ?? memory.name}</strong>
      </p>
      <p className={s.memoryText}>{memory.originalMessage ?? memory.message}</p>
    </details>
  );
}

export function PublishedMemories({
  memories,
  action,
  query,
  timeZone,
}: {
  memories: ListedMemory[];
  /** The list's own address (with its search and page), where its forms post. */
  action: string;
  /** The search and page, kept on the edit and delete pages' addresses. */
  query: string;
  timeZone: string;
}) {
  const remove = useDeleteWord();
  return (
    <ul className={s.memoryList} aria-label="Published memories">
      {memories.map((memory) => {
        const hidden = memory.status === "HIDDEN";
        const what = `the memory from ${memory.name}`;
        return (
          <li key={memory.id} className={s.memoryCard}>
            <h3 className={s.cardHeading}>{memory.name}</h3>
            <p className={s.cardText}>
              <PublishedState hidden={hidden} />{" "}
              <span className={ui.muted}>
                {[unpublishedWords(memory, timeZone), `Submitted ${formatDateTime(memory.createdAt, timeZone)}`]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
              {memory.canDisplay ? null : <span className={ui.muted}> · shared with the family only</span>}
            </p>
            <p className={s.memoryText}>{memory.message}</p>
            <EditedRecord memory={memory} timeZone={timeZone} />
            <div className={s.actions}>
              <PublishToggle id={memory.id} hidden={hidden} action={action} what={what} />
              <Link
                to={`/admin/published/memories/${memory.id}/edit${query}`}
                className={ui.button.secondary}
                preventScrollReset
                aria-label={`Edit ${what}`}
              >
                Edit
              </Link>
              <Link
                to={`/admin/published/memories/${memory.id}/delete${query}#${DIALOG_TITLE_ID}`}
                className={ui.button.danger}
                preventScrollReset
                aria-label={`${remove} ${what}`}
              >
                {remove}
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function PublishedUploads({
  uploads,
  action,
  query,
  timeZone,
}: {
  uploads: AdminUpload[];
  action: string;
  query: string;
  timeZone: string;
}) {
  const remove = useDeleteWord();
  return (
    <ul className={s.grid} aria-label="Published photos, videos and voice memories">
      {uploads.map((upload) => {
        const name = upload.originalName ?? "Unknown";
        const hidden = upload.status === "HIDDEN";
        const unpublished = unpublishedWords(upload, timeZone);
        // A voice is named by who sent it ("the voice memory from Ann"), a photo or video by its file.
        const what = upload.type === "AUDIO" ? uploadName(upload) : `the ${UPLOAD_KIND[upload.type]} ${name}`;
        return (
          <li key={upload.id} className={s.uploadCard}>
            {upload.type === "AUDIO" ? (
              <VoicePanel upload={upload} />
            ) : (
              <span className={s.thumbLink}>
                {upload.thumbnailUrl ? (
                  <AdminThumbnail upload={upload} />
                ) : (
                  <span className={s.videoPlaceholder}>{upload.type === "VIDEO" ? "Video" : "Photo"}</span>
                )}
              </span>
            )}
            <p className={s.cardText}>
              <span className={s.badge}>{upload.type}</span> <PublishedState hidden={hidden} />
            </p>
            <p className={s.cardText}>
              <strong>{name}</strong>
            </p>
            <p className={s.cardText}>{upload.submittedBy || "Anonymous"}</p>
            {upload.type === "AUDIO" ? <VoiceNotes upload={upload} /> : null}
            {unpublished ? <p className={`${s.cardText} ${ui.muted}`}>{unpublished}</p> : null}
            <div className={s.actions}>
              <PublishToggle id={upload.id} hidden={hidden} action={action} what={what} />
              <Link
                to={`/admin/published/uploads/${upload.id}/delete${query}#${DIALOG_TITLE_ID}`}
                className={ui.button.danger}
                preventScrollReset
                aria-label={`${remove} ${what}`}
              >
                {remove}
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
