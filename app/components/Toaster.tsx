import { useEffect, useRef, useState, type PointerEvent } from "react";
import type { Toast, ToastInput } from "~/utils/toast";
import { useT } from "./useT";
import * as s from "./Toaster.css";

const DISPLAY_MS = 5000;
const SWIPE_THRESHOLD = 50;
const TOAST_EVENT = "memorial:toast";

/** Shows a toast from the browser (for outcomes only JavaScript knows about). */
export function showToast(input: ToastInput) {
  window.dispatchEvent(
    new CustomEvent<Toast>(TOAST_EVENT, {
      detail: { id: `${Date.now()}-${Math.random()}`, type: "default", ...input },
    }),
  );
}

/**
 * One notification at a time, rendered by the server as a plain status
 * message so the confirmation shows without JavaScript; once the page is
 * interactive it floats and dismisses itself.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const { t } = useT();
  const [enhanced, setEnhanced] = useState(false);
  const [current, setCurrent] = useState<Toast | null>(toast);
  const [paused, setPaused] = useState(false);
  const [dragX, setDragX] = useState(0);
  const seen = useRef(new Set<string>());
  const region = useRef<HTMLElement>(null);
  const dragStart = useRef<number | null>(null);

  useEffect(() => setEnhanced(true), []);

  useEffect(() => {
    if (toast && !seen.current.has(toast.id)) {
      seen.current.add(toast.id);
      setCurrent(toast);
    }
  }, [toast]);

  useEffect(() => {
    const onToast = (event: Event) => setCurrent((event as CustomEvent<Toast>).detail);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener(TOAST_EVENT, onToast);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener(TOAST_EVENT, onToast);
      window.removeEventListener("keydown", onKey);
    };
  }, []);

  useEffect(() => {
    if (!enhanced || !current || paused) return;
    const timer = window.setTimeout(() => setCurrent(null), DISPLAY_MS);
    return () => window.clearTimeout(timer);
  }, [enhanced, current, paused]);

  useEffect(() => setDragX(0), [current]);

  const onPointerDown = (event: PointerEvent) => {
    dragStart.current = event.clientX;
  };
  const onPointerMove = (event: PointerEvent) => {
    if (dragStart.current !== null) setDragX(Math.max(0, event.clientX - dragStart.current));
  };
  const onPointerUp = () => {
    if (dragStart.current === null) return;
    dragStart.current = null;
    if (dragX > SWIPE_THRESHOLD) setCurrent(null);
    else setDragX(0);
  };

  return (
    <section ref={region} aria-label={t("common.toasts.region")} tabIndex={-1} className={enhanced ? s.floatingRegion : s.inlineRegion}>
      <div role="status" aria-live="polite" aria-atomic="true">
        {current ? (
          <div
            className={s.toast[current.type]}
            data-testid="toast"
            data-type={current.type}
            style={dragX ? { transform: `translateX(${dragX}px)`, opacity: 1 - dragX / 200 } : undefined}
            onPointerDown={enhanced ? onPointerDown : undefined}
            onPointerMove={enhanced ? onPointerMove : undefined}
            onPointerUp={enhanced ? onPointerUp : undefined}
            onPointerCancel={enhanced ? onPointerUp : undefined}
            onMouseEnter={() => setPaused(true)}
            onMouseLeave={() => setPaused(false)}
            onFocus={() => setPaused(true)}
            onBlur={() => setPaused(false)}
          >
            <div>
              <p className={s.title}>{current.title}</p>
              {current.description ? <p className={s.description}>{current.description}</p> : null}
            </div>
            {enhanced ? (
              <button type="button" className={s.close} onClick={() => setCurrent(null)} aria-label={t("common.toasts.dismiss")}>
                <span aria-hidden="true">×</span>
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
