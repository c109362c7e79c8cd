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
