import { useEffect, useRef, useState } from "react";
import { showToast } from "~/components/Toaster";
import { useT } from "~/components/useT";
import * as ui from "~/styles/ui.css";
import type { ShareUppy } from "./ShareUppy";
import "./ShareUploader.css";

/**
 * The "Choose Files" button in front of the Uppy dialog. Uppy loads only on
 * the click, to keep it out of the page's JavaScript budget
 * (docs/decisions/017); until then, or if it cannot load, the plain form works.
 */
export function ShareUploader({
  nameInputId,
  emailInputId,
  notifyInputId,
  onReady,
  onUnavailable,
  onUploaded,
}: {
  nameInputId: string;
  emailInputId: string;
  /** The "E-mail me when…" checkbox, when the page offers it. */
  notifyInputId?: string;
  /** The button is in place: the plain file field can give way. */
  onReady: () => void;
  /** The dialog could not be loaded: the plain file field comes back. */
  onUnavailable: () => void;
  onUploaded: (name: string) => void;
}) {
  type Uploader = ShareUppy;
  const { t, tError, language } = useT();
  const words = useRef({ t, tError, language });
  words.current = { t, tError, language };
  const uppyRef = useRef<Uploader | null>(null);
  const loadRef = useRef<(() => Promise<Uploader | null>) | null>(null);
  const loading = useRef<Promise<Uploader | null> | null>(null);
  const [ready, setReady] = useState(false);
  const callbacks = useRef({ onReady, onUnavailable, onUploaded });
  callbacks.current = { onReady, onUnavailable, onUploaded };

  useEffect(() => {
    let cancelled = false;
    async function load(): Promise<Uploader | null> {
      const { createShareUppy } = await import("./ShareUppy");
      const uppy = await createShareUppy({
        nameInputId,
        emailInputId,
        notifyInputId,
        onUploaded: (name) => callbacks.current.onUploaded(name),
        isCancelled: () => cancelled,
        showToast,
        t: (id, values) => words.current.t(id, values),
        tError: (english) => words.current.tError(english),
        language: words.current.language,
      });
      uppyRef.current = uppy;
      return uppy;
    }

    loadRef.current = load;
    setReady(true);
    callbacks.current.onReady();
    return () => {
      cancelled = true;
      uppyRef.current?.destroy();
      uppyRef.current = null;
      loadRef.current = null;
      loading.current = null;
    };
    // The dialog speaks the page's language as it was when it loaded: a new language is a new page.
  }, [nameInputId, emailInputId, notifyInputId]);

  if (!ready) return null;
  return (
    <button
      type="button"
      className={ui.button.primary}
      onClick={() => {
        // Name and e-mail first: asking for them only after the files are chosen would waste the visitor's effort.
        const missing = [nameInputId, emailInputId]
          .map((id) => document.getElementById(id) as HTMLInputElement | null)
          .find((input) => !input?.value.trim());
        if (missing) {
          showToast({ title: t("share.toast.missingTitle"), description: t("share.toast.missingDescription"), type: "destructive" });
          missing.focus();
          return;
        }
        if (!loading.current && loadRef.current) loading.current = loadRef.current();
        loading.current
          ?.then((uppy) => {
            const dashboard = uppy?.getPlugin("Dashboard") as { openModal: () => void } | undefined;
            dashboard?.openModal();
          })
          .catch((error: unknown) => {
            // The plain form comes back: the page still works.
            console.error("The upload dialog could not be loaded", error);
            loading.current = null;
            setReady(false);
            callbacks.current.onUnavailable();
          });
      }}
    >
      {t("share.chooseFiles")}
    </button>
  );
}
