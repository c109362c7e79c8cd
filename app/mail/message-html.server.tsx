// The HTML part of the e-mails: JSX rendered on the server with
// renderToStaticMarkup, which escapes what visitors wrote. Inline styles only,
// which every mail program reads; one column, large type, buttons big enough
// to tap.

import { Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { LANGUAGE_TAGS, textDirection, type Language } from "~/i18n/languages";

/** A visitor's text as paragraphs (split at empty lines), each with its own line breaks. */
export const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

export type Block =
  | { kind: "p"; text: string }
  | { kind: "quote"; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "heading"; text: string }
  | { kind: "button"; text: string; href: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "pictures"; items: { cid: string | null; label: string; href: string }[] };

const MUTED = { fontSize: "15px", color: "#6b5f55" };
const LINK = { color: "#7a4b2a" };

/** A block as mail programs show it: inline styles only, which every one of them reads. */
function BlockHtml({ block, rtl }: { block: Block; rtl: boolean }) {
  switch (block.kind) {
    case "p":
      return <p style={{ margin: "0 0 16px" }}>{block.text}</p>;
    case "quote":
      // Paragraphs and line breaks as elements: many mail programs ignore white-space: pre-wrap.
      return (
        <blockquote
          style={{
            margin: "0 0 16px",
            padding: "8px 16px",
            [rtl ? "borderRight" : "borderLeft"]: "4px solid #c9b8a6",
            background: "#fffdf9",
          }}
        >
          {paragraphsOf(block.text).map((paragraph, i) => (
            <p key={i} style={{ margin: "0 0 8px" }}>
              {paragraph.split("\n").map((line, j) => (
                <Fragment key={j}>
                  {j > 0 && <br />}
                  {line}
                </Fragment>
              ))}
            </p>
          ))}
        </blockquote>
      );
    case "list":
      return (
        <ul style={{ margin: "0 0 16px", [rtl ? "paddingRight" : "paddingLeft"]: "24px" }}>
          {block.items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      );
    case "heading":
      return <h2 style={{ margin: "24px 0 8px", fontSize: "20px", lineHeight: "1.3" }}>{block.text}</h2>;
    case "button":
      return (
        <p style={{ margin: "0 0 16px" }}>
          <a
            href={block.href}
            style={{
              display: "inline-block",
              padding: "12px 20px",
              background: "#7a4b2a",
              color: "#ffffff",
              textDecoration: "none",
              borderRadius: "6px",
              fontWeight: "bold",
            }}
          >
            {block.text}
          </a>
        </p>
      );
    case "link":
      return (
        <p style={{ margin: "0 0 16px" }}>
          <a href={block.href} style={LINK}>
            {block.text}
          </a>
        </p>
      );
    case "pictures":
      return (
        <p style={{ margin: "0 0 16px" }}>
          {block.items.map((item, i) => (
            <a
              key={i}
              href={item.href}
              style={{
                display: "inline-block",
                margin: rtl ? "0 0 8px 8px" : "0 8px 8px 0",
                color: "#7a4b2a",
                textDecoration: "none",
                verticalAlign: "top",
                width: "140px",
              }}
            >
              {item.cid ? (
                <img
                  src={`cid:${item.cid}`}
                  alt=""
                  width={140}
                  style={{ display: "block", width: "140px", maxWidth: "100%", height: "auto", borderRadius: "4px", border: "0" }}
                />
              ) : null}
              <span style={{ display: "block", fontSize: "15px", lineHeight: "1.4", wordWrap: "break-word" }}>{item.label}</span>
            </a>
          ))}
        </p>
      );
  }
}

interface MailPage {
  subject: string;
  siteTitle: string;
  blocks: Block[];
  /** Why this address gets the e-mail, in a sentence. */
  why: string;
  settingsUrl?: string;
  unsubscribeUrl: string;
  /** "Stop these e-mails", in the message's language. */
  stop: string;
  language: Language;
}

/** The whole message: whose memorial above, the blocks, and why it came and how to stop it below. */
function MailHtml({ subject, siteTitle, blocks, why, settingsUrl, unsubscribeUrl, stop, language }: MailPage) {
  const rtl = textDirection(language) === "rtl";
  return (
    <html lang={LANGUAGE_TAGS[language]} dir={rtl ? "rtl" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{subject}</title>
      </head>
      <body style={{ margin: "0", padding: "0", background: "#f6f1ea" }}>
        <div
          dir={rtl ? "rtl" : undefined}
          style={{
            maxWidth: "600px",
            margin: "0 auto",
            padding: "24px 16px",
            fontFamily: "Georgia,'Times New Roman',serif",
            fontSize: "18px",
            lineHeight: "1.6",
            color: "#2b2520",
          }}
        >
          <p style={{ margin: "0 0 8px", ...MUTED }}>{siteTitle}</p>
          {blocks.map((block, i) => (
            <BlockHtml key={i} block={block} rtl={rtl} />
          ))}
          <hr style={{ border: "0", borderTop: "1px solid #e4dcd3", margin: "24px 0" }} />
          <p style={{ margin: "0 0 8px", ...MUTED }}>{why}</p>
          {settingsUrl ? (
            <p style={{ margin: "0 0 8px", fontSize: "15px" }}>
              <a href={settingsUrl} style={LINK}>
                Choose what you get
              </a>
            </p>
          ) : null}
          <p style={{ margin: "0", fontSize: "15px" }}>
            <a href={unsubscribeUrl} style={LINK}>
              {stop}
            </a>
          </p>
        </div>
      </body>
    </html>
  );
}

/** The message as an HTML document. */
export const mailHtml = (page: MailPage) => `<!DOCTYPE html>\n${renderToStaticMarkup(<MailHtml {...page} />)}\n`;
