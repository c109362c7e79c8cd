import type { PublicMemory } from "~/guestbook/memory.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./MemoryList.css";

// Written without ?. and ??: the build spells those out for Safari 12 at twice the length, and the guest book is at its budget.
function initialOf(name: string): string {
  return (Array.from(name.trim())[0] || "?").toLocaleUpperCase();
}

/** A memory as the guest book shows it: with how long ago it was shared ("about 2 hours ago", utils/relative-time.ts). */
export type ShownMemory = PublicMemory & { ago: string };

function MemoryCard({ memory, position }: { memory: ShownMemory; position: number }) {
  return (
    <li className={s.card} id={`memory-${position}`}>
      <span className={s.avatar} aria-hidden="true">
        {initialOf(memory.name)}
      </span>
      <div className={s.body}>
        <p className={s.meta}>
          <span className={s.name}>{memory.name}</span>{" "}
          <time className={s.time} dateTime={memory.createdAt}>
            {memory.ago}
          </time>
        </p>
        <p className={s.message}>{memory.message}</p>
      </div>
    </li>
  );
}

/** The memories, or `emptyText` when there are none; `label` names the list for screen readers (the page's words). */
export function MemoryList({ memories, label, emptyText }: { memories: ShownMemory[]; label: string; emptyText: string }) {
  if (memories.length === 0) {
    return <p className={ui.emptyState}>{emptyText}</p>;
  }
  return (
    <ol className={s.list} aria-label={label}>
      {memories.map((memory, index) => (
        <MemoryCard key={memory.id} memory={memory} position={index + 1} />
      ))}
    </ol>
  );
}
