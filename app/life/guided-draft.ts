import { formatPartialDate, parsePartialDate } from "~/site/life-dates";
import { QUESTIONS, type Answers, type QuestionName } from "./life.schema";

// The guided draft: the family's answers to plain questions, put together
// into a first life story they then edit. Written here, on the server or in
// the browser alike; nothing is sent anywhere.

export interface DraftPerson {
  name: string;
  born: { date: string; place: string };
  died: { date: string; place: string };
}

/** "in 1942", "in March 1942" or "on March 14, 1942". */
function when(value: string): string | null {
  const date = value ? parsePartialDate(value) : null;
  if (!date) return null;
  return `${date.day === undefined ? "in" : "on"} ${formatPartialDate(date)}`;
}

/** "born on March 14, 1942, in Dublin", "born in Dublin", or null when neither is known. */
function event(verb: string, end: { date: string; place: string }): string | null {
  const parts = [when(end.date), end.place.trim() ? `in ${end.place.trim()}` : null].filter(Boolean);
  return parts.length > 0 ? `${verb} ${parts.join(", ")}` : null;
}

/** The opening sentence from the dates and places: "Ann Smith was born on …, in Dublin, and died in 2026." */
export function openingSentence(person: DraftPerson): string {
  const events = [event("was born", person.born), event("died", person.died)].filter(Boolean);
  return events.length > 0 ? `${person.name} ${events.join(", and ")}.` : "";
}

const HEADINGS: Record<QuestionName, string> = {
  family: "Family",
  work: "Work",
  loved: "What they loved",
  remembered: "What they would want remembered",
  survivedBy: "Survived by",
  inLieuOfFlowers: "In lieu of flowers",
};

/** The first draft: the opening sentence, then each answer given under its heading, in the family's words. */
export function composeDraft(person: DraftPerson, answers: Answers): string {
  const parts: string[] = [];
  const opening = openingSentence(person);
  if (opening) parts.push(opening);
  for (const { name } of QUESTIONS) {
    const text = answers[name].trim();
    if (text) parts.push(`## ${HEADINGS[name]}`, text);
  }
  return parts.join("\n\n");
}
