import { useFetcher } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import * as f from "~/components/forms.css";
import {
  HERO_PHOTO_ACCEPT,
  HERO_PHOTO_ACTION,
  HERO_PHOTO_FAILED,
  HERO_PHOTO_SECTION,
  heroPhotoConstraint,
  isFamilyHeroImage,
  type SiteMediaFormResult,
} from "~/site/site-media.schema";
import { useSite } from "~/site/site-view";
import { HintedInput, ResetForm, SaveButton, siteMediaAnswer } from "./site-media-form";
import * as s from "./site-media.css";

/**
 * The family's hero photo: what the home page shows now, a plain form to
 * upload another (a file and the words that describe it; it works without
 * JavaScript) and, once they have their own, a way back to the original.
 * It posts to its own route, which comes back to the Site tab; `answer`
 * is a refused submission's answer when this form is that route's page
 * (without JavaScript).
 */
export function HeroPhotoForm({ answer }: { answer?: SiteMediaFormResult }) {
  const site = useSite();
  const hero = site.heroImage;
  // One fetcher for both forms: the answer shown is the last submission's.
  const fetcher = useFetcher<{ result?: SiteMediaFormResult }>({ key: HERO_PHOTO_SECTION });
  const result = siteMediaAnswer(fetcher, answer);
  const intent = fetcher.state === "idle" ? null : fetcher.formData?.get("intent");
  const altErrors = result?.fieldErrors.heroImageAlt;
  const familyPhoto = isFamilyHeroImage(hero);

  return (
    <section id={HERO_PHOTO_SECTION} className={s.section} aria-labelledby="hero-photo-title">
      <h2 id="hero-photo-title" className={s.title}>
        Hero photo
      </h2>
      <figure className={s.current}>
        <img
          className={s.preview}
          src={hero.src}
          srcSet={hero.srcSetJpeg}
          sizes="(min-width: 40rem) 36rem, 100vw"
          alt={site.heroImageAlt}
          width={hero.width}
          height={hero.height}
        />
        <figcaption className={s.caption}>
          {familyPhoto ? "The photo at the top of the home page now." : "The photo the site came with, at the top of the home page now."}
        </figcaption>
      </figure>

      {/* A new photo on the page gives a fresh form (the file chosen is not kept). */}
      <fetcher.Form key={hero.src} method="post" action={HERO_PHOTO_ACTION} encType="multipart/form-data" preventScrollReset>
        <FormAlert title={HERO_PHOTO_FAILED} messages={result?.formErrors} />
        <HintedInput
          id="hero-photo-file"
          label="New photo"
          hint="A JPG, PNG, WebP or HEIC photo of up to 25 MB. A wide (landscape) photo fills the screen best. Leave this empty to change only the description."
          type="file"
          name="photo"
          accept={HERO_PHOTO_ACCEPT}
          className={s.fileInput}
        />
        <HintedInput
          id="hero-photo-alt"
          label="Describe the photo"
          hint="For visitors who cannot see it, e.g. “Mum laughing on the beach at Point Reyes”."
          type="text"
          name="heroImageAlt"
          required={heroPhotoConstraint.heroImageAlt?.required}
          maxLength={heroPhotoConstraint.heroImageAlt?.maxLength}
          defaultValue={answer?.values.heroImageAlt ?? site.heroImageAlt}
          errors={altErrors}
          className={f.input}
        />
        <SaveButton intent={intent}>Save Photo</SaveButton>
      </fetcher.Form>

      {familyPhoto ? (
        <ResetForm fetcher={fetcher} action={HERO_PHOTO_ACTION} intent={intent}>
          Use the original photo
        </ResetForm>
      ) : null}
    </section>
  );
}
