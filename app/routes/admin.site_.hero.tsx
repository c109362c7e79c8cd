import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { requireAdmin } from "~/auth/session.server";
import { HeroPhotoForm } from "~/components/admin/HeroPhotoForm";
import { receiveHeroPhotoForm, resetHeroPhoto } from "~/models/site-media.server";
import { HERO_DESCRIPTION_SAVED, HERO_PHOTO_RESET, HERO_PHOTO_SAVED, HERO_PHOTO_SECTION, SITE_TAB_PATH } from "~/models/site-media.schema";
import { pageMeta } from "~/utils/meta";
import { loaderCacheControl, PRIVATE_NO_STORE } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";
import { isMultipart, refusedReset, unknownIntent } from "~/utils/site-media-actions.server";

// POST /admin/site/hero: the hero photo form of the Site tab (upload, or
// intent=reset for the original photo). Done: back to the tab with a toast.
// Refused: the answer is the form again with the reason and what was typed
// (the page below without JavaScript; beside the form with it).

export const headers = loaderCacheControl;

/** The form on a page of its own: the answer to a refused form without JavaScript (it lives in the Site tab). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json(null, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const back = `${SITE_TAB_PATH}#${HERO_PHOTO_SECTION}`;
  if (isMultipart(request)) {
    const answer = await receiveHeroPhotoForm(request, admin.username);
    if (answer.ok) return redirectWithToast(back, answer.saved === "file" ? HERO_PHOTO_SAVED : HERO_DESCRIPTION_SAVED);
    return json({ result: answer.result }, { status: answer.status, headers: answer.headers });
  }
  const intent = await unknownIntent(request, "reset");
  if (intent) return intent;
  try {
    await resetHeroPhoto(admin.username);
  } catch (error) {
    return refusedReset(error);
  }
  return redirectWithToast(back, HERO_PHOTO_RESET);
}

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
