import type { AdminMemory } from "~/guestbook/memory.schema";
import { formatDateTime } from "~/utils/time";

const VERBS = { APPROVED: "Approved", REJECTED: "Rejected", HIDDEN: "Unpublished" } as const;

/**
 * Who approved, rejected (or, a helper, set aside) or unpublished an item and when, as a row of a
 * details list ("Approved by anna on Aug 31, 2025, 4:05 PM"); nothing while it waits.
 */
export function ModerationRecord({
  status,
  setAside = false,
  moderatedBy,
  moderatedAt,
  timeZone,
}: {
  status: AdminMemory["status"];
  setAside?: boolean;
  moderatedBy: string | null;
  moderatedAt: string | null;
  timeZone: string;
}) {
  if (status === "PENDING" || !moderatedAt) return null;
  const verb = setAside ? "Set aside" : VERBS[status];
  return (
    <>
      <dt>Moderated</dt>
      <dd>
        {verb}
        {moderatedBy ? ` by ${moderatedBy}` : ""} on {formatDateTime(moderatedAt, timeZone)}
      </dd>
    </>
  );
}
