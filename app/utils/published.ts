// Client-safe: the Published view's addresses, for its pages and their actions.

export const MEMORIES_LIST = "/admin/published/memories";
export const UPLOADS_LIST = "/admin/published/uploads";

/** The list at `base` showing `search` from the page after `before`: where its forms, edit and delete pages go back to. */
export function publishedListAddress(base: string, { search, before }: { search?: string | null; before?: string | null }) {
  const query = new URLSearchParams();
  if (search) query.set("q", search);
  if (before) query.set("before", before);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}
