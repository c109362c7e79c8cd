import { CANDLE_MESSAGE_MAX, CANDLE_NAME_MAX } from "~/candles/candle.constants";
import type { CandleSummary } from "~/candles/candle.schema";
import type { Translator } from "~/i18n/words";
import { Field } from "~/components/forms";
import * as forms from "~/components/forms.css";
import * as ui from "~/styles/ui.css";
import * as s from "./CandleSection.css";

/** A refused candle (conform's reply, as the /candles action writes it): the messages, and what was typed. */
interface CandleReply {
  error?: Record<string, string[] | null> | null;
  initialValue?: Record<string, unknown> | null;
}

/**
 * "Light a candle": the count, a row of lit candles, the names and lines the
 * family published, and a plain HTML form to /candles that comes back to
 * `returnTo`. No hooks: the home page and the guest book get it as HTML
 * from their loaders (candle-section.server.ts; docs/decisions/035), and the
 * /candles page renders it with a refusal's `reply`. Its words come in the
 * visitor's language as `words` (the server's `translate`, or the page's `useT`).
 */
export function CandleSection({
  summary,
  returnTo,
  reply,
  textBrowser = false,
  words,
}: {
  summary: CandleSummary;
  returnTo: string;
  reply?: CandleReply | null;
  /** Terminal browsers show every field: they get no spam trap (as the guest book's Honeypot does). */
  textBrowser?: boolean;
  /** The words of the `candles` catalog in the visitor's language, and the schema's messages in it. */
  words: Pick<Translator, "t" | "tError">;
}) {
  const { t, tError } = words;
  const field = (name: "name" | "message", maxLength: number) => {
    const errors = reply?.error?.[name]?.map(tError) ?? undefined;
    const value = reply?.initialValue?.[name];
    const id = `candle-${name}`;
    return {
      errors,
      errorId: `${id}-error`,
      inputProps: {
        id,
        name,
        type: "text",
        maxLength,
        defaultValue: typeof value === "string" ? value : undefined,
        "aria-invalid": errors ? true : undefined,
        "aria-describedby": errors ? `${id}-error` : undefined,
      },
    };
  };
  const name = field("name", CANDLE_NAME_MAX);
  const drawn = Math.min(summary.count, s.CANDLES_DRAWN);
  return (
    <section id="candles" className={s.section} aria-labelledby="candles-title">
      <h2 id="candles-title">{t("candles.title")}</h2>
      <p className={s.count}>{summary.count === 0 ? t("candles.first") : t("candles.count", { count: summary.count })}</p>
      {drawn ? (
        // The row is drawn by its background, one candle per step of its width.
        <div className={s.row} style={{ width: drawn * s.CANDLE_STEP }} aria-hidden="true" />
      ) : null}
      {summary.recent.length ? (
        <ul className={s.names} aria-label={t("candles.namesLabel")}>
          {summary.recent.map((candle, i) => (
            <li key={`${candle.createdAt}-${i}`} className={s.named}>
              {candle.name ? <span className={s.name}>{candle.name}</span> : null}
              {candle.message}
            </li>
          ))}
        </ul>
      ) : null}
      <form method="post" action="/candles" className={s.form}>
        <input type="hidden" name="redirectTo" value={returnTo} />
        <Field label={t("candles.form.name")} {...name} inputProps={{ ...name.inputProps, autoComplete: "name" }} />
        <Field label={t("candles.form.message", { max: CANDLE_MESSAGE_MAX })} {...field("message", CANDLE_MESSAGE_MAX)} />
        {textBrowser ? null : (
          // The spam trap, as forms.tsx's Honeypot draws it (which reads the router, so cannot be rendered to a string).
          <div className={forms.honeypot} aria-hidden="true">
            <label htmlFor="hp-webpage">{t("candles.form.honeypot")}</label>
            <input id="hp-webpage" type="text" name="webpage" tabIndex={-1} autoComplete="off" />
          </div>
        )}
        <button type="submit" className={`${ui.button.primary} ${s.button}`}>
          {t("candles.form.button")}
        </button>
      </form>
    </section>
  );
}
