import type { FetcherWithComponents } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { ErrorList } from "~/components/forms";
import * as f from "~/components/forms.css";
import type { SiteMediaFormResult } from "~/site/site-media.schema";
import * as ui from "~/styles/ui.css";
import * as s from "./site-media.css";

// What the hero photo and Karen Mode song forms share.

type SiteMediaFetcher = FetcherWithComponents<{ result?: SiteMediaFormResult }>;

/**
 * The refusal to show: the answer to this page's last submission with
 * JavaScript, or (without JavaScript, when the form is the answer page
 * itself) the page's own; nothing while a submission is on its way.
 */
export function siteMediaAnswer(fetcher: SiteMediaFetcher, answer: SiteMediaFormResult | undefined): SiteMediaFormResult | undefined {
  if (fetcher.state !== "idle") return undefined;
  return fetcher.data?.result ?? answer;
}

/** A labelled input with a hint above it and its messages below, linked for screen readers (`{id}-hint`, `{id}-error`). */
export function HintedInput({
  id,
  label,
  hint,
  errors,
  ...input
}: { id: string; label: ReactNode; hint: ReactNode; errors?: string[] } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={f.field}>
      <label htmlFor={id} className={f.label}>
        {label}
      </label>
      <p id={`${id}-hint`} className={f.hint}>
        {hint}
      </p>
      <input
        id={id}
        {...input}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      {input.type === "file" ? null : <ErrorList id={`${id}-error`} errors={errors} />}
    </div>
  );
}

/** The upload form's button; `intent` is the one on its way, if any. */
export function SaveButton({ intent, children }: { intent: unknown; children: ReactNode }) {
  return (
    <button type="submit" name="intent" value="upload" className={ui.button.primary} disabled={intent === "upload"}>
      {intent === "upload" ? "Saving..." : children}
    </button>
  );
}

/** The small form that goes back to the file the site came with. */
export function ResetForm({
  fetcher,
  action,
  intent,
  children,
}: {
  fetcher: SiteMediaFetcher;
  action: string;
  intent: unknown;
  children: ReactNode;
}) {
  return (
    <fetcher.Form method="post" action={action} className={s.resetForm} preventScrollReset>
      <button type="submit" name="intent" value="reset" className={ui.button.secondary} disabled={intent === "reset"}>
        {intent === "reset" ? "Resetting..." : children}
      </button>
    </fetcher.Form>
  );
}
