import type { ReactNode } from "react";
import { VOICE_LINE_MAX } from "~/media/limits";
import * as ui from "~/styles/ui.css";
import {
  CHOOSE_AGAIN,
  VOICE_FIELDS,
  VOICE_FORM_ID,
  voiceInputId,
  type VoiceWords,
  type VoiceField,
  type VoiceFormPage,
  type VoiceFormReply,
} from "~/voices/voice-form.constants";
import * as s from "./VoiceForm.css";

// "Leave a voice memory": a plain multipart form to /voices, the same on the
// guest book, the share page and /voices. No hooks: the pages get it as HTML
// from their loaders (app/routes/voice-section.server.ts; docs/decisions/035),
// and /voices renders it with a refusal's messages and what was typed.
//
// Without JavaScript the file field opens the phone's recorder (`capture`).
// The in-page recorder (VoiceRecorder.ts, loaded on demand) shows the hidden
// Record / Stop / Listen / Record again controls, and fills the empty message
// lists below each field and the summary in place.

/** The messages under a field: always there (hidden while empty), so the recorder can fill them in place. */
function Messages({ field, errors }: { field: VoiceField; errors?: string[] }) {
  return (
    <ul id={`${voiceInputId(field)}-error`} className={s.errors} hidden={!errors?.length}>
      {errors?.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

/** aria-invalid and the link to the messages, when a field was refused. */
function invalid(field: VoiceField, errors?: string[], hintId?: string) {
  const described = [hintId, errors?.length ? `${voiceInputId(field)}-error` : undefined].filter(Boolean).join(" ");
  return { "aria-invalid": errors?.length ? true : undefined, "aria-describedby": described || undefined };
}

function Label({ field, children }: { field: VoiceField; children: ReactNode }) {
  return (
    <label htmlFor={voiceInputId(field)} className={s.label}>
      {children}
    </label>
  );
}

/**
 * The summary at the top after a refusal: each refused field by name,
 * linking to its input (its messages stay beside it), as the guest book's
 * FormAlert. Always in the markup, hidden while empty, so the recorder can
 * fill it; a page loaded with it (without JavaScript) focuses it.
 */
function Summary({ refused, t }: { refused: VoiceField[]; t: VoiceWords["t"] }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-autofocus -- it is the answer to the visitor's own submission
    <div id={`${VOICE_FORM_ID}-alert`} role="alert" tabIndex={-1} className={s.alert} hidden={!refused.length} autoFocus={!!refused.length}>
      <p className={s.alertTitle}>{t("voices.form.check")}</p>
      <ul className={s.alertList}>
        {refused.map((field) => (
          <li key={field}>
            <a href={`#${voiceInputId(field)}`}>{t(`voices.fields.${field}`)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function VoiceForm({
  from,
  standalone = false,
  notifyOffered,
  reply,
  textBrowser = false,
  words,
  recorderWords,
}: {
  /** The page showing it: where a sent voice comes back to. */
  from: VoiceFormPage;
  /** On a page of its own (/voices), under the page's heading (id "voice-title") and words. */
  standalone?: boolean;
  /** "E-mail me when…" is offered only when the site sends e-mail. */
  notifyOffered: boolean;
  /** A refused form: its messages and what was typed. */
  reply?: VoiceFormReply | null;
  /** Terminal browsers show every field and hidden control: they get neither the spam trap nor the recorder's. */
  textBrowser?: boolean;
  /** The words in the visitor's language (the server's translator: the form is rendered as HTML). */
  words: VoiceWords;
  /** The recorder's words in the visitor's language (JSON), when they are not English. */
  recorderWords?: string;
}) {
  const { t } = words;
  const errors = Object.fromEntries(
    Object.entries(reply?.errors ?? {}).map(([field, messages]) => [field, messages?.map(words.tError)]),
  ) as VoiceFormReply["errors"];
  const values = reply?.values;
  const refused = (Object.keys(VOICE_FIELDS) as VoiceField[]).filter((field) => errors[field]?.length);
  // A browser never gives a chosen file back: after any other refusal, the visitor chooses it again.
  const recordingErrors = errors.recording ?? (reply ? [words.tError(CHOOSE_AGAIN)] : undefined);
  const hintId = `${voiceInputId("recording")}-hint`;
  const lineHintId = `${voiceInputId("line")}-hint`;
  return (
    <section id="leave-voice" className={s.section} aria-labelledby="voice-title">
      {standalone ? null : (
        <>
          <h2 id="voice-title">{t("voices.form.title")}</h2>
          <p className={s.intro}>{t("voices.form.intro")}</p>
        </>
      )}
      {/* A text browser shows what is hidden: it gets the summary only when there is something in it. */}
      {textBrowser && !refused.length ? null : <Summary refused={refused} t={t} />}
      <form id={VOICE_FORM_ID} data-words={recorderWords} method="post" action="/voices" encType="multipart/form-data" className={s.form}>
        <input type="hidden" name="from" value={from} />
        <div className={s.field}>
          <Label field="recording">{t("voices.fields.recording")} *</Label>
          <p id={hintId} className={s.hint}>
            {t("voices.form.recordingHint")}
          </p>
          {textBrowser ? null : (
            <div id="voice-recorder" className={s.recorder} hidden>
              <div className={s.buttons}>
                <button type="button" data-voice="record" className={ui.button.primary}>
                  {t("voices.recorder.record")}
                </button>
                <button type="button" data-voice="stop" className={ui.button.primary} hidden>
                  {t("voices.recorder.stop")}
                </button>
                <button type="button" data-voice="listen" className={ui.button.primary} hidden>
                  {t("voices.recorder.listen")}
                </button>
                <button type="button" data-voice="again" className={ui.button.secondary} hidden>
                  {t("voices.recorder.again")}
                </button>
              </div>
              {/* The clock is read, not announced every second; what changes is said by the status below it. */}
              <p data-voice="timer" role="timer" className={s.timer} hidden />
              <p data-voice="status" role="status" className={s.status} />
              <audio data-voice="player" controls preload="auto" aria-label={t("voices.recorder.player")} className={s.player} hidden />
              <p className={s.orChoose}>{t("voices.form.orChoose")}</p>
            </div>
          )}
          <input
            id={voiceInputId("recording")}
            name="recording"
            type="file"
            accept="audio/*"
            capture
            required
            className={s.fileInput}
            {...invalid("recording", recordingErrors, hintId)}
          />
          <Messages field="recording" errors={recordingErrors} />
        </div>
        <div className={s.field}>
          <Label field="name">{t("voices.fields.name")} *</Label>
          <input
            id={voiceInputId("name")}
            name="name"
            type="text"
            required
            maxLength={100}
            autoComplete="name"
            defaultValue={values?.name}
            className={s.input}
            {...invalid("name", errors.name)}
          />
          <Messages field="name" errors={errors.name} />
        </div>
        <div className={s.field}>
          <Label field="email">{t("voices.form.emailOptional")}</Label>
          <input
            id={voiceInputId("email")}
            name="email"
            type="email"
            maxLength={254}
            autoComplete="email"
            defaultValue={values?.email}
            className={s.input}
            {...invalid("email", errors.email)}
          />
          <Messages field="email" errors={errors.email} />
        </div>
        <div className={s.field}>
          <Label field="line">{t("voices.form.lineOptional")}</Label>
          <p id={lineHintId} className={s.hint}>
            {t("voices.form.lineHint")}
          </p>
          <textarea
            id={voiceInputId("line")}
            name="line"
            rows={3}
            maxLength={VOICE_LINE_MAX}
            defaultValue={values?.line}
            className={s.textarea}
            {...invalid("line", errors.line, lineHintId)}
          />
          <Messages field="line" errors={errors.line} />
        </div>
        <div className={s.field}>
          <div className={s.checkboxRow}>
            <input
              id={voiceInputId("canDisplay")}
              name="canDisplay"
              type="checkbox"
              defaultChecked={values ? values.canDisplay : true}
              className={s.checkbox}
            />
            <label htmlFor={voiceInputId("canDisplay")}>{t("voices.form.permission")}</label>
          </div>
        </div>
        {notifyOffered ? (
          <div className={s.field}>
            <div className={s.checkboxRow}>
              <input id={voiceInputId("notify")} name="notify" type="checkbox" defaultChecked={values?.notify} className={s.checkbox} />
              <label htmlFor={voiceInputId("notify")}>{t("voices.form.notify")}</label>
            </div>
          </div>
        ) : null}
        {textBrowser ? null : (
          <div className={s.honeypot} aria-hidden="true">
            <label htmlFor="voice-website">{t("voices.form.honeypot")}</label>
            <input id="voice-website" type="text" name="website" tabIndex={-1} autoComplete="off" />
          </div>
        )}
        <button type="submit" className={`${ui.button.primary} ${s.send}`}>
          {t("voices.recorder.send")}
        </button>
      </form>
    </section>
  );
}
