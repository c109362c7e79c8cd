// submittedBy, the spec's "name (email)" for who shared a photo or video.

/** submittedBy as the spec writes it: the name followed by the email in parentheses. */
export function submitterLabel(name: string, email: string) {
  return `${name.trim()} (${email.trim()})`;
}

/** The name and email back out of submittedBy ("Name (email)", as submitterLabel writes it). */
export function parseSubmittedBy(submittedBy: string): { name: string; email: string } | null {
  const match = /^(.*)\(([^()\s]+@[^()\s]+)\)\s*$/.exec(submittedBy.trim());
  return match ? { name: match[1]!.trim(), email: match[2]!.trim() } : null;
}

/** The most of a sender's name anyone is shown: the share form's own limit. */
const SENDER_NAME_MAX = 100;

/**
 * The sender's name as they gave it ("Grandpa Ted", never cut to "Grandpa"),
 * for the gallery's titles, the slideshow's caption and a helper's admin
 * lists: spaces made single, and any word that looks like an address left
 * out. A voice memory may come with a name alone ("Grandpa Ted"): all of it
 * is the name. Null when there is no name to show.
 */
export function senderName(submittedBy: string | null): string | null {
  const name = submittedBy ? (parseSubmittedBy(submittedBy)?.name ?? submittedBy) : "";
  const words = name.split(/\s+/).filter((word) => word && !word.includes("@"));
  return words.length > 0 ? words.join(" ").slice(0, SENDER_NAME_MAX).trimEnd() : null;
}
