// Paging shared by the list pages, their loaders and the browser.

/**
 * The most items one guest book or gallery page holds. Without JavaScript,
 * "Load More" sends the page again with everything so far; past this the
 * page would grow without end (5,000 memories is megabytes), so the list
 * continues on pages of its own ("Earlier memories →").
 */
export const MAX_ITEMS_PER_PAGE = 100;

/**
 * How many items a page asked for with `?offset=` shows: the next `pageSize`
 * after the first `offset`, never more than MAX_ITEMS_PER_PAGE. Anything
 * that is not a whole number counts as the first page.
 */
export function itemsToShow(offset: string | null, pageSize: number): number {
  const requested = Number(offset);
  const more = Number.isSafeInteger(requested) && requested > 0 ? requested : 0;
  return Math.min(more + pageSize, Math.max(MAX_ITEMS_PER_PAGE, pageSize));
}
