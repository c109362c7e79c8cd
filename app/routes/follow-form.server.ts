import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FollowForm } from "~/components/FollowForm";
import { translate, translateError } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import { followOffer } from "~/remembrance/follower-news.server";

// "Remember with us" on the home page and after signing the guest book, as
// HTML made here rather than code sent to the browser: a plain form needs no
// JavaScript, and those pages are held to their JavaScript budget
// (docs/decisions/017, docs/decisions/035). The page puts the markup in place
// as it is; /follow, which shows a refusal's messages, renders the same
// component itself.

/**
 * The form's markup with the page's own ids (`after-signing`: the guest
 * book's words once a memory is sent), or null when the site sends no
 * e-mail (nothing to offer). Its words are in the visitor's `language`.
 */
export function followFormHtml(id: string, words?: "after-signing", language: Language = "en"): string | null {
  const offer = followOffer();
  if (!offer) return null;
  const t = translate(language);
  return renderToStaticMarkup(
    createElement(FollowForm, {
      offer,
      id,
      words: { t, tError: (english: string) => translateError(language, english) },
      ...(words ? { intro: t("follow.afterSigning") } : {}),
    }),
  );
}
