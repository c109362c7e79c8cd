import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { LifePhotoForm } from "~/components/admin/LifePhotoForm";
import { LIFE_PHOTO_FORM, lifePhotoSink, receiveLifePhotoForm, removeLifePhoto } from "~/life/life-photo.server";
import { LIFE_PHOTO_REMOVED, LIFE_PHOTO_SAVED, LIFE_PHOTO_SECTION } from "~/life/life.schema";
import { pageMeta } from "~/site/meta";
import { loaderCacheControl } from "~/platform/http.server";
import { answerSiteMediaForm, siteMediaPage } from "~/routes/site-media-actions.server";

// POST /admin/life/photo: the life story page's own photo (upload, or
// intent=reset to remove it), as the hero photo's form; see answerSiteMediaForm.

export const headers = loaderCacheControl;

export const loader = ({ request }: LoaderFunctionArgs) => siteMediaPage(request);

export const action = ({ request }: ActionFunctionArgs) =>
  answerSiteMediaForm(request, {
    section: LIFE_PHOTO_SECTION,
    tab: "/admin/life",
    upload: LIFE_PHOTO_FORM,
    sink: lifePhotoSink,
    receive: receiveLifePhotoForm,
    reset: removeLifePhoto,
    toasts: { file: LIFE_PHOTO_SAVED, words: LIFE_PHOTO_SAVED, reset: LIFE_PHOTO_REMOVED },
  });

/** The form again with the reason, when it was refused without JavaScript. */
export default function LifePhotoAnswer() {
  const data = useActionData<typeof action>();
  return (
    <>
      <p>
        <Link to={`/admin/life#${LIFE_PHOTO_SECTION}`}>Back to the life story</Link>
      </p>
      <LifePhotoForm answer={data?.result} photo={null} />
    </>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Life story photo", description: "The photo at the top of the life story.", path: "/admin/life/photo" });
