import { Form, Link } from "@remix-run/react";
import { useState, type FormEvent, type ReactNode } from "react";
import * as ui from "~/styles/ui.css";
import * as s from "./LoadMore.css";
import { useT } from "./useT";

import type { ListState } from "./list-page";

type Status = ListState<never>["status"];

/**
 * "Load More" with JavaScript, appending pages from the API's cursors. A page
 * that arrives for an older list (another filter, new server data) is
 * dropped, so a filter never shows another filter's items.
 */
export function useLoadMore<T extends { id: number }>({
  initial,
  next,
  pageUrl,
  receive,
}: {
  initial: T[];
  /** The cursor after the server's page, or null when there is nothing more. */
  next: string | null;
  pageUrl: (cursor: string) => string;
  /** Makes the API's items into what the list shows (without it, they are shown as they come). */
  receive?: (items: unknown[]) => Promise<T[]> | T[];
}) {
  const [list, setList] = useState<ListState<T>>({ base: initial, items: initial, next, status: "idle" });
  if (list.base !== initial) {
    // Render-time reset (React's documented pattern for state derived from props).
    setList({ base: initial, items: initial, next, status: "idle" });
  }

  const load = async () => {
    // A page belongs to the list it was asked for: once new server data replaced that list, it is dropped.
    const { base, next: cursor } = list;
    if (!cursor) return;
    const forSameList = (change: (state: ListState<T>) => ListState<T>) =>
      setList((state) => (state.base === base ? change(state) : state));
    forSameList((state) => ({ ...state, status: "loading" }));
    // The rest comes with the first page asked for (list-page.ts), not with the page; a lost connection fails as a lost page does.
    await import("./list-page").then(
      (module) => module.appendPage(pageUrl(cursor), receive, forSameList),
      () => forSameList((state) => ({ ...state, status: "failed" })),
    );
  };

  return { items: list.items, next: list.next, status: list.status, load };
}

/**
 * Where a list goes on once a page holds MAX_ITEMS_PER_PAGE items (with or
 * without JavaScript), and the way back to its newest items: plain links.
 */
export function ListPages({
  label,
  newest,
  earlier,
  above = false,
}: {
  /** Names the navigation for screen readers, e.g. "Pages of memories". */
  label: string;
  /** Placed above the list rather than below it. */
  above?: boolean;
  newest?: { to: string; text: string } | null;
  earlier?: { to: string; text: string } | null;
}) {
  if (!newest && !earlier) return null;
  return (
    <nav aria-label={label} className={above ? s.pagesAbove : s.more}>
      {newest ? (
        <Link to={newest.to} className={ui.button.secondary}>
          {newest.text}
        </Link>
      ) : null}
      {/* A space, so text browsers such as lynx show "← Newest memories Earlier memories →" apart (a flex box drops it). */}{" "}
      {earlier ? (
        <Link to={earlier.to} className={ui.button.secondary}>
          {earlier.text}
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * The button: a GET form to the page itself (the server sends the longer
 * list, up to MAX_ITEMS_PER_PAGE, which works without JavaScript); with
 * JavaScript, `onLoad` appends the next page in place.
 */
export function LoadMoreForm({
  action,
  offset,
  status,
  onLoad,
  label,
  children,
}: {
  /** The page's address, with the fragment of the first new item. */
  action: string;
  offset: number;
  status: Status;
  onLoad: () => void;
  label: string;
  /** Other hidden fields the page keeps (a filter, the cursor the page starts after). */
  children?: ReactNode;
}) {
  const { t } = useT();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== "loading") onLoad();
  };
  return (
    <Form method="get" action={action} onSubmit={submit} className={s.more} preventScrollReset>
      {children}
      <input type="hidden" name="offset" value={offset} />
      <button type="submit" className={ui.button.secondary} disabled={status === "loading"}>
        {status === "loading" ? t("forms.loadMore.loading") : label}
      </button>
      <p role="status" className={s.message}>
        {status === "failed" ? t("forms.loadMore.failed") : null}
      </p>
    </Form>
  );
}
