import type { FollowTopic } from "../../db/schema";

// Words of "Remember with us" that the browser shows too: zod-free, so the
// pages that render the form load no schema (docs/decisions/017).

/** What a follower may choose to hear about, in the form and in the confirmation e-mail. */
export const TOPIC_LABELS: Record<FollowTopic, string> = {
  service: "Changes to the service, and a note after it",
  new: "New memories, photos and videos (a weekly e-mail at most)",
  reminders: "A reminder on the days we remember each year",
};

/** What the family offers to be told of: the service only until it is over, reminders only once they turned one on. */
export type FollowOffer = Record<FollowTopic, boolean>;

/** The same answer whoever asks, so nobody learns who follows. */
export const FOLLOW_SENT = {
  title: "Check your e-mail",
  description: "If the address is right, an e-mail with a link is on its way. Nothing more will be sent until you open it.",
};

const TOPIC_WORDS: Record<FollowTopic, string> = {
  service: "the service",
  new: "new memories, photos and videos",
  reminders: "yearly reminders",
};

/** What a follower follows, in the family's list and its CSV: "the service and yearly reminders". */
export function topicWords(topics: readonly FollowTopic[]): string {
  const words = topics.map((topic) => TOPIC_WORDS[topic]);
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
