import { Link } from "@remix-run/react";
import * as ui from "~/styles/ui.css";
import * as s from "./admin.css";

// What the family's Pending tabs say instead of their lists while helpers
// read first, and above them when the family asked to see them anyway.

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? `${one} is` : `${many} are`}`;

/** "Your helpers read new memories first. 3 are waiting for them; …", and a link to see them on purpose. */
export function ReadFirstNotice({
  what,
  waiting,
  candles = 0,
  showAllTo,
}: {
  what: "memories" | "uploads";
  waiting: number;
  /** Candles with words waiting too (the Pending Memories tab). */
  candles?: number;
  showAllTo: string;
}) {
  const items = what === "memories" ? "new memories" : "new photos and videos";
  const waitingWords =
    waiting === 0
      ? "Nothing is waiting for them now"
      : `${what === "memories" ? count(waiting, "memory", "memories") : count(waiting, "photo or video", "photos and videos")} waiting for them`;
  return (
    <section aria-labelledby="read-first-title" className={s.setupChecklist}>
      <h2 id="read-first-title" className={s.sectionTitle}>
        Your helpers read first
      </h2>
      <p>
        Your helpers read {items} first. {waitingWords}; what they approve appears in Published.
        {candles > 0 ? ` ${count(candles, "candle with words", "candles with words")} waiting too.` : ""}
      </p>
      {waiting + candles > 0 ? (
        <p>
          <Link to={showAllTo} className={ui.button.secondary}>
            Show what is waiting
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** Above the lists the family asked to see: what they are looking at, and the way back. */
export function ShownOnPurpose({ hideTo }: { hideTo: string }) {
  return (
    <p className={s.storageNote}>
      Your helpers read these first: you asked to see what is waiting for them. <Link to={hideTo}>Hide it again</Link>
    </p>
  );
}
