// The in-page recorder of the voice form (VoiceForm.tsx): Record, Stop,
// Listen, Record again and Send, with the browser's MediaRecorder. Loaded on
// demand by the pages that show the form, after they are interactive; it
// works on the form's server-rendered markup (the guest book and the share
// page get it as HTML from their loaders), so it is plain DOM code.
//
// Where MediaRecorder or the microphone is missing, the form stays as it is
// without JavaScript (its file field opens the phone's recorder); where the
// microphone is refused, the visitor is told and chooses a file instead.
// Either way the form is sent from here, to /api/voices, so its answer shows
// in place: the toast and a fresh form, or each field's message.
import { showToast } from "~/components/Toaster";
import {
  RECORDER,
  recordedStatus,
  recordingStatus,
  refusalIn,
  SEND_FAILED,
  VOICE_FIELDS,
  VOICE_FORM_ID,
  VOICE_SENT,
  voiceInputId,
  type RecorderWords,
  type VoiceField,
} from "~/voices/voice-form.constants";
import { VOICE_MAX_SECONDS } from "~/media/limits";

/** What browsers record, most widely playable first for each: Opus in WebM (Chrome, Firefox), AAC in MP4 (Safari), Opus in Ogg. */
const MIME_TYPES = ["audio/webm;codecs=opus", "audio/mp4", "audio/ogg;codecs=opus"];
const EXTENSIONS: Record<string, string> = { "audio/webm": "webm", "audio/mp4": "m4a", "audio/ogg": "ogg" };
/** How often the clock is redrawn; it shows whole seconds. */
const TICK_MS = 250;

type Errors = Partial<Record<string, string[]>>;

/** An element's children replaced (replaceChildren is too new for Safari 12, which runs this to send the form). */
function fill(parent: Element, children: Node[]) {
  parent.textContent = "";
  parent.append(...children);
}

/** Leaving the page lets go of the microphone: the recorder of the form shown last. */
let stopOnLeaving = () => {};
window.addEventListener("pagehide", () => stopOnLeaving());

/**
 * Sets up the voice form on this page, once; nothing when the page has none.
 * The default export, so the pages' one line that loads it is as short as it
 * can be (the guest book is at its JavaScript budget).
 */
export default function enhanceVoiceForm() {
  const form = document.getElementById(VOICE_FORM_ID) as HTMLFormElement | null;
  if (!form || form.dataset.enhanced) return;
  form.dataset.enhanced = "true";

  const part = <T extends HTMLElement>(name: string) => form.querySelector<T>(`[data-voice="${name}"]`);
  const panel = form.querySelector<HTMLElement>("#voice-recorder");
  const file = form.querySelector<HTMLInputElement>(`#${voiceInputId("recording")}`)!;
  const hint = document.getElementById(`${voiceInputId("recording")}-hint`);
  const plainHint = hint?.textContent;
  const send = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const alert = document.getElementById(`${VOICE_FORM_ID}-alert`);
  // The recorder's controls (none for a text browser, which gets only the file field).
  // The visitor's language, when it is not English: the words the server wrote on the form.
  const words = form.dataset.words ? (JSON.parse(form.dataset.words) as RecorderWords) : null;
  const say = (key: keyof typeof RECORDER) => words?.recorder[key] ?? RECORDER[key];
  const refusal = (english: string) => refusalIn(english, words);
  const [record, stop, listen, again] = ["record", "stop", "listen", "again"].map((name) => part<HTMLButtonElement>(name));
  const timer = part("timer");
  const status = part("status");
  const player = part<HTMLAudioElement>("player");
  for (const input of form.querySelectorAll<HTMLElement>("[aria-describedby]"))
    input.dataset.hint = input.getAttribute("aria-describedby")!;

  let take: Blob | null = null;
  let takeSeconds = 0;
  let recording: { recorder: MediaRecorder; stream: MediaStream; startedAt: number; clock: number } | null = null;
  let sendWhenStopped = false;

  const show = (shown: (HTMLElement | null | undefined)[], hidden: (HTMLElement | null | undefined)[]) => {
    for (const element of shown) if (element) element.hidden = false;
    for (const element of hidden) if (element) element.hidden = true;
  };

  function forgetTake() {
    take = null;
    if (player?.src) {
      URL.revokeObjectURL(player.src);
      player.removeAttribute("src");
    }
    show([record], [stop, listen, again, player, timer]);
    if (status) status.textContent = "";
  }

  function microphoneRefused() {
    forgetTake();
    show([], [record]);
    // The page cannot record: the field is again the way to the phone's own recorder, as without JavaScript.
    file.setAttribute("capture", "");
    if (hint && plainHint) hint.textContent = plainHint;
    if (status) status.textContent = say("noMicrophone");
    file.focus();
  }

  async function startRecording() {
    forgetTake();
    // The last choice wins: a recording made here replaces a chosen file.
    file.value = "";
    let stream: MediaStream;
    let recorder: MediaRecorder;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return microphoneRefused();
    }
    try {
      const mimeType = MIME_TYPES.find((type) => MediaRecorder.isTypeSupported?.(type));
      recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    } catch {
      for (const track of stream.getTracks()) track.stop();
      return microphoneRefused();
    }
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      const type = recorder.mimeType || chunks[0]?.type || "audio/webm";
      recorded(chunks.length ? new Blob(chunks, { type }) : null);
    };
    recorder.start(1000);
    recording = { recorder, stream, startedAt: Date.now(), clock: window.setInterval(tick, TICK_MS) };
    show([stop, timer], [record, again, listen, player]);
    tick();
    // Said once: the clock beside it is read, not announced every second.
    if (status) status.textContent = say("started");
    stop?.focus();
  }

  function tick() {
    if (!recording) return;
    // The page was taken away (another form's answer replaced it): the microphone is let go.
    if (!form!.isConnected) return stopRecording();
    const seconds = Math.min((Date.now() - recording.startedAt) / 1000, VOICE_MAX_SECONDS);
    timer!.textContent = recordingStatus(seconds, words?.recording);
    // Ten minutes at most: it stops itself, and the recording so far is kept.
    if (seconds >= VOICE_MAX_SECONDS) stopRecording();
  }

  function stopRecording() {
    if (!recording) return;
    const { recorder, startedAt, clock } = recording;
    window.clearInterval(clock);
    takeSeconds = Math.min((Date.now() - startedAt) / 1000, VOICE_MAX_SECONDS);
    recording = null;
    if (recorder.state !== "inactive") recorder.stop();
  }

  function recorded(blob: Blob | null) {
    if (!blob) {
      // Stopped before the microphone gave any sound.
      sendWhenStopped = false;
      forgetTake();
      if (status) status.textContent = say("nothing");
      return record?.focus();
    }
    take = blob;
    player!.src = URL.createObjectURL(blob);
    show([listen, again, player], [stop, timer, record]);
    status!.textContent = recordedStatus(takeSeconds, words?.recorded);
    showErrors({});
    if (sendWhenStopped) {
      sendWhenStopped = false;
      void sendForm();
    } else listen?.focus();
  }

  /** Each field's messages beside it, and the summary naming them; none clears them. */
  function showErrors(errors: Errors) {
    const byField: Errors = {};
    for (const [field, messages] of Object.entries(errors)) {
      // Anything that is not one of the form's fields (the form as a whole) is said beside the recording.
      const key = field in VOICE_FIELDS ? field : "recording";
      byField[key] = [...(byField[key] ?? []), ...(messages ?? []).map(refusal)];
    }
    const refused = (Object.keys(VOICE_FIELDS) as VoiceField[]).filter((field) => byField[field]?.length);
    for (const field of Object.keys(VOICE_FIELDS) as VoiceField[]) {
      const list = document.getElementById(`${voiceInputId(field)}-error`);
      const input = document.getElementById(voiceInputId(field));
      if (!list || !input) continue;
      fill(
        list,
        (byField[field] ?? []).map((message) => Object.assign(document.createElement("li"), { textContent: message })),
      );
      list.hidden = !byField[field]?.length;
      const described = [input.dataset.hint, byField[field]?.length ? list.id : ""].filter(Boolean).join(" ");
      if (described) input.setAttribute("aria-describedby", described);
      else input.removeAttribute("aria-describedby");
      if (byField[field]?.length) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
    if (!alert) return;
    fill(
      alert.querySelector("ul")!,
      refused.map((field) => {
        const item = document.createElement("li");
        item.append(
          Object.assign(document.createElement("a"), {
            href: `#${voiceInputId(field)}`,
            textContent: words?.fields[field] ?? VOICE_FIELDS[field],
          }),
        );
        return item;
      }),
    );
    alert.hidden = !refused.length;
    if (refused.length) {
      alert.focus({ preventScroll: true });
      alert.scrollIntoView({ block: "center" });
    }
  }

  async function sendForm() {
    const data = new FormData(form!);
    if (take) data.set("recording", take, `voice-memory.${EXTENSIONS[take.type.split(";")[0]!] ?? "webm"}`);
    send.disabled = true;
    send.textContent = say("sending");
    try {
      const response = await fetch("/api/voices", { method: "POST", body: data, headers: { Accept: "application/json" } });
      const answer = (await response.json().catch(() => null)) as { errors?: Errors } | null;
      if (response.ok) {
        showToast(words?.sent ?? VOICE_SENT);
        form!.reset();
        forgetTake();
        showErrors({});
      } else showErrors(answer?.errors ?? { recording: [SEND_FAILED] });
    } catch {
      showErrors({ recording: [SEND_FAILED] });
    } finally {
      send.disabled = false;
      send.textContent = say("send");
      // Send was disabled while sending, which left the focus on the page itself: it goes back to the
      // form's start (after a refusal the summary has it; the toast says it was sent).
      if (!document.activeElement || document.activeElement === document.body) (record && !record.hidden ? record : file).focus();
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (send.disabled) return;
    // Send pressed while recording: the recording is finished first, then sent.
    if (recording) {
      sendWhenStopped = true;
      return stopRecording();
    }
    void sendForm();
  });

  // A chosen file replaces a recording made here.
  file.addEventListener("change", () => {
    if (file.files?.length && take) forgetTake();
  });

  stopOnLeaving = stopRecording;

  const canRecord = typeof MediaRecorder !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";
  if (!canRecord || !panel || !record || !stop || !listen || !again || !player) return;
  record.addEventListener("click", () => void startRecording());
  again.addEventListener("click", () => void startRecording());
  stop.addEventListener("click", stopRecording);
  listen.addEventListener("click", () => {
    player.currentTime = 0;
    void player.play();
  });
  // Recorded here or chosen: the form no longer needs its file field filled in.
  file.required = false;
  // The page records now: the field is for a recording already made (an old voicemail), and
  // `capture` would open a phone's recorder instead of its files. The hint says so.
  file.removeAttribute("capture");
  if (hint) hint.textContent = say("hint");
  panel.hidden = false;
}
