// Client-safe: the little formatting a life story may have, read the same way
// by the page, the memory book and the keepsake. Paragraphs are separated by
// a blank line; a line starting with "## " is a heading; lines starting with
// "- " make a list. Nothing else is markup: the text is always shown as text.

export type StoryBlock = { type: "heading"; text: string } | { type: "paragraph"; lines: string[] } | { type: "list"; items: string[] };

const HEADING = /^#{1,3}\s+(.*)$/;
const ITEM = /^[-*•]\s+(.*)$/;

/** The story's headings, paragraphs (their line breaks kept) and lists, in order. */
export function storyBlocks(story: string): StoryBlock[] {
  const blocks: StoryBlock[] = [];
  let lines: string[] = [];
  const endParagraph = () => {
    if (lines.length > 0) blocks.push({ type: "paragraph", lines });
    lines = [];
  };
  for (const raw of story.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    const heading = HEADING.exec(line);
    const item = ITEM.exec(line);
    if (!line) endParagraph();
    else if (heading?.[1]) {
      endParagraph();
      blocks.push({ type: "heading", text: heading[1] });
    } else if (item?.[1]) {
      endParagraph();
      const last = blocks[blocks.length - 1];
      if (last?.type === "list") last.items.push(item[1]);
      else blocks.push({ type: "list", items: [item[1]] });
    } else {
      // A paragraph straight after a list item starts a new paragraph.
      lines.push(line);
    }
  }
  endParagraph();
  return blocks;
}

/** The story's opening sentence (for a link preview), at most `max` characters; empty when there is no story. */
export function firstSentence(story: string, max = 300): string {
  const paragraph = storyBlocks(story).find((block) => block.type === "paragraph");
  if (!paragraph || paragraph.type !== "paragraph") return "";
  const text = paragraph.lines.join(" ");
  const end = /[.!?](?=\s|$)/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length)}…`;
}
