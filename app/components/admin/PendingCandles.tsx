import type { AdminCandle } from "~/candles/candle.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";
import { ModerationButtons } from "./ModerationButtons";
import { useAdminRole } from "./admin-role";

/**
 * Candles lit with a name or a few words, waiting for the family like a
 * memory: published, they are shown (and counted, when they were the
 * visitor's first of the day); rejected, never.
 */
export function PendingCandles({ candles, total, action }: { candles: AdminCandle[]; total: number; action: string }) {
  const reject = useAdminRole() === "helper" ? "Set aside" : "Reject";
  return (
    <section aria-labelledby="pending-candles-title">
      <h2 id="pending-candles-title">Candles waiting</h2>
      {candles.length === 0 ? (
        <p className={ui.emptyState}>No candles are waiting.</p>
      ) : (
        <>
          {total > candles.length ? (
            <p>
              {candles.length} shown of {total} waiting, oldest first.
            </p>
          ) : null}
          <div className={s.tableWrap}>
            <table className={s.table}>
              <caption className={ui.visuallyHidden}>Candles waiting</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Words</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {candles.map((candle) => (
                  <tr key={candle.id}>
                    <td data-label="Name">{candle.name ?? "No name given"}</td>
                    <td data-label="Words" className={s.truncate}>
                      {candle.message ?? "No words given"}
                    </td>
                    <td data-label="Actions">
                      <ModerationButtons id={candle.id} action={action} labels={{ approve: "Publish", reject }} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
