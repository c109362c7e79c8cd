// One more page of a list from the JSON API, for "Load More" with JavaScript
// (LoadMore.tsx). Fetched the first time the visitor asks for more, not with
// the page (docs/decisions/017).

/** A list "Load More" grows (LoadMore.tsx): what the server's page gave (`base`), what is shown, the cursor after it. */
export interface ListState<T> {
  base: T[];
  items: T[];
  next: string | null;
  status: "idle" | "loading" | "failed";
}

/** Fetches the page at `url` and appends its new items to the list (`update` changes it only while it is the same list). */
export async function appendPage<T extends { id: number }>(
  url: string,
  receive: ((items: unknown[]) => Promise<T[]> | T[]) | undefined,
  update: (change: (state: ListState<T>) => ListState<T>) => void,
) {
  try {
    const fetched = await fetchListPage<unknown>(url);
    const page = receive ? await receive(fetched.items) : (fetched.items as T[]);
    update((state) => {
      const known = new Set(state.items.map((item) => item.id));
      return { ...state, items: [...state.items, ...page.filter((item) => !known.has(item.id))], next: fetched.next, status: "idle" };
    });
  } catch (error) {
    console.warn("Load More failed", error);
    update((state) => ({ ...state, status: "failed" }));
  }
}

/** The `before` cursor of a `Link: <…>; rel="next"` header, or null when there is no next page. */
export function nextCursorFromLink(link: string | null): string | null {
  const target = link ? /<([^>]*)>\s*;\s*rel="?next"?/.exec(link)?.[1] : undefined;
  if (!target) return null;
  return new URL(target, "http://list.invalid").searchParams.get("before");
}

/** The items of the page at `url` and the cursor after it (null at the end); throws when the answer is not a list. */
async function fetchListPage<T>(url: string): Promise<{ items: T[]; next: string | null }> {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${response.status}`);
  const items = (await response.json()) as T[];
  if (!Array.isArray(items)) throw new Error("not a list");
  return { items, next: nextCursorFromLink(response.headers.get("Link")) };
}
