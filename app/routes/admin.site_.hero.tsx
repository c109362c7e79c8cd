import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { HeroPhotoForm } from "~/components/admin/HeroPhotoForm";
import { HERO_PHOTO_FORM, heroPhotoSink, receiveHeroPhotoForm, resetHeroPhoto } from "~/site/hero-photo.server";
import { HERO_DESCRIPTION_SAVED, HERO_PHOTO_RESET, HERO_PHOTO_SAVED, HERO_PHOTO_SECTION, SITE_TAB_PATH } from "~/site/site-media.schema";
import { pageMeta } from "~/site/meta";
import { loaderCacheControl } from "~/platform/http.server";
import { answerSiteMediaForm, siteMediaPage } from "~/routes/site-media-actions.server";

// POST /admin/site/hero: the hero photo form of the Site tab (upload, or
// intent=reset for the original photo); see answerSiteMediaForm.

export const headers = loaderCacheControl;

export const loader = ({ request }: LoaderFunctionArgs) => siteMediaPage(request);

export const action = ({ request }: ActionFunctionArgs) =>
  answerSiteMediaForm(request, {
    section: HERO_PHOTO_SECTION,
    upload: HERO_PHOTO_FORM,
    sink: heroPhotoSink,
    receive: receiveHeroPhotoForm,
    reset: resetHeroPhoto,
    toasts: { file: HERO_PHOTO_SAVED, words: HERO_DESCRIPTION_SAVED, reset: HERO_PHOTO_RESET },
  });

export default function HeroPhotoAnswer() {
  const data = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to={`${SITE_TAB_PATH}#${HERO_PHOTO_SECTION}`}>Back to the site settings</Link>
      </p>
      <HeroPhotoForm answer={data?.result} />
    </>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Hero photo", description: "The photo at the top of the home page.", path: "/admin/site/hero" });
