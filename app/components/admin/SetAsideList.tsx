import { Form } from "@remix-run/react";
import type { AdminCandle } from "~/candles/candle.schema";
import type { AdminMemory } from "~/guestbook/memory.schema";
import type { AdminUpload } from "~/uploads/upload.schema";
import * as ui from "~/styles/ui.css";
import { setAsideAction, setAsideAnchor, type SetAsideKind } from "~/utils/set-aside";
import { parseSubmittedBy } from "~/utils/submitted-by";
import { formatLongDate } from "~/utils/time";
import * as s from "./admin.css";
import * as l from "./SetAsideList.css";
import { confirmAnchor } from "./ConfirmStep";
import { ProcessingProblem } from "./PendingUploads";
import { VoiceNotes, VoicePlayer } from "./AdminVoice";

// What helpers set aside, for the family: each item a <details>, folded
// until it is opened (no JavaScript needed), its summary only who sent it,
// who set it aside and when. Inside, the words or the picture, and plain
// forms to publish it after all or delete it for good (which asks first).

interface Entry {
  kind: SetAsideKind;
  id: number;
  /** "A memory from Ann Lee": what it is and who sent it, never what it says. */
  title: string;
  moderatedBy: string | null;
  moderatedAt: string | null;
  body: React.ReactNode;
  /** Publish (it is ready), keep it unpublished to be prepared (an upload not yet ready), or neither (it cannot be published). */
  restore: "publish" | "keep" | null;
}

const uploadWhat = (upload: AdminUpload) => ({ IMAGE: "A photo", VIDEO: "A video", AUDIO: "A voice memory" })[upload.type];

function memoryEntry(memory: AdminMemory): Entry {
  return {
    kind: "memory",
    id: memory.id,
    title: `A memory from ${memory.name}`,
    moderatedBy: memory.moderatedBy,
    moderatedAt: memory.moderatedAt,
    body: <p className={s.memoryText}>{memory.message}</p>,
    restore: "publish",
  };
}

function uploadEntry(upload: AdminUpload): Entry {
  const sender = parseSubmittedBy(upload.submittedBy ?? "")?.name || upload.submittedBy || "someone";
  const name = upload.originalName ?? "Unknown";
  const state = upload.processing.state;
  return {
    kind: "upload",
    id: upload.id,
    title: `${uploadWhat(upload)} from ${sender}`,
    moderatedBy: upload.moderatedBy,
    moderatedAt: upload.moderatedAt,
    body: (
      <>
        <p className={s.cardText}>
          <strong>{name}</strong>
        </p>
        {state === "failed" ? (
          <ProcessingProblem reason={upload.processing.reason} />
        ) : upload.type === "AUDIO" ? (
          <>
            {/* The original is offered below, until the copy is made. */}
            <VoicePlayer upload={upload} offerOriginal={false} />
            <VoiceNotes upload={upload} />
          </>
        ) : upload.thumbnailUrl ? (
          <img src={upload.thumbnailUrl} alt={`${uploadWhat(upload)} set aside: ${name}`} className={l.picture} loading="lazy" />
        ) : null}
        {state === "ready" || state === "failed" ? null : (
          <p className={s.processingNote}>
            It was set aside before it was ready. Keep it to have it prepared: you can publish it from the Published tab once it is.
          </p>
        )}
        {upload.originalUrl ? (
          <p className={s.cardText}>
            <a href={upload.originalUrl} download={name}>
              Download the original
            </a>
          </p>
        ) : null}
      </>
    ),
    restore: state === "ready" ? "publish" : state === "failed" ? null : "keep",
  };
}

function candleEntry(candle: AdminCandle): Entry {
  return {
    kind: "candle",
    id: candle.id,
    title: candle.name ? `A candle from ${candle.name}` : "A candle without a name",
    moderatedBy: candle.moderatedBy,
    moderatedAt: candle.moderatedAt,
    body: <p className={s.memoryText}>{candle.message ?? "No words given"}</p>,
    restore: "publish",
  };
}

/** Every item, the newest set aside first. */
export function setAsideEntries(lists: { memories: AdminMemory[]; uploads: AdminUpload[]; candles: AdminCandle[] }): Entry[] {
  return [...lists.memories.map(memoryEntry), ...lists.uploads.map(uploadEntry), ...lists.candles.map(candleEntry)].sort(
    (a, b) => (b.moderatedAt ?? "").localeCompare(a.moderatedAt ?? "") || b.id - a.id,
  );
}

export function SetAsideList({ entries, timeZone }: { entries: Entry[]; timeZone: string }) {
  if (entries.length === 0) return <p className={ui.emptyState}>Nothing is set aside.</p>;
  return (
    <ul className={s.memoryList} aria-label="Set aside by helpers">
      {entries.map((entry) => {
        const action = setAsideAction(entry.kind);
        const when = entry.moderatedAt ? ` on ${formatLongDate(entry.moderatedAt, timeZone)}` : "";
        return (
          <li key={`${entry.kind}-${entry.id}`} className={s.memoryCard}>
            <details id={setAsideAnchor(entry.kind, entry.id)}>
              <summary className={l.summary}>
                {entry.title}, set aside by {entry.moderatedBy ?? "a helper"}
                {when}
              </summary>
              <div className={l.opened}>
                {entry.body}
                <Form method="post" action={action} className={s.actions} preventScrollReset>
                  <input type="hidden" name="id" value={entry.id} />
                  {entry.restore === "publish" ? (
                    <button type="submit" name="intent" value="publish" className={ui.button.primary}>
                      Publish
                    </button>
                  ) : entry.restore === "keep" ? (
                    <button type="submit" name="intent" value="keep" className={ui.button.secondary}>
                      Keep, unpublished
                    </button>
                  ) : null}
                  {/* Its answer is a question (ConfirmStep): the page opens at it. */}
                  <button
                    type="submit"
                    name="intent"
                    value="delete"
                    formAction={`${action}#${confirmAnchor(entry.id)}`}
                    className={ui.button.danger}
                  >
                    Delete for good
                  </button>
                </Form>
              </div>
            </details>
          </li>
        );
      })}
    </ul>
  );
}
