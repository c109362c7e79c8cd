// One more page of a list from the JSON API, for "Load More" with JavaScript
// (LoadMore.tsx). Fetched the first time the visitor asks for more, not with
// the page (docs/decisions/017).

/** The `before` cursor of a `Link: <…>; rel="next"` header, or null when there is no next page. */
export function nextCursorFromLink(link: string | null): string | null {
  const target = link ? /<([^>]*)>\s*;\s*rel="?next"?/.exec(link)?.[1] : undefined;
  if (!target) return null;
  return new URL(target, "http://list.invalid").searchParams.get("before");
}

/** The items of the page at `url` and the cursor after it (null at the end); throws when the answer is not a list. */
export async function fetchListPage<T>(url: string): Promise<{ items: T[]; next: string | null }> {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${response.status}`);
  const items = (await response.json()) as T[];
  if (!Array.isArray(items)) throw new Error("not a list");
  return { items, next: nextCursorFromLink(response.headers.get("Link")) };
}
