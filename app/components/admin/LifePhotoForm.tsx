import { useFetcher } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { LIFE_PHOTO_ACTION, LIFE_PHOTO_SECTION } from "~/life/life.schema";
import { PHOTO_ACCEPT, PHOTO_FAILED } from "~/site/photo-form";
import type { SiteMediaFormResult } from "~/site/site-media.schema";
import type { HeroImageView } from "~/site/site-view";
import { HintedInput, ResetForm, SaveButton, siteMediaAnswer } from "./site-media-form";
import * as s from "./site-media.css";

/**
 * The life story page's own photo, uploaded as the hero photo is: what the
 * page shows now, a plain form for another (it works without JavaScript),
 * and a way to remove it. `answer` is a refused submission's answer when
 * this form is its route's page (without JavaScript).
 */
export function LifePhotoForm({ photo, answer }: { photo: HeroImageView | null; answer?: SiteMediaFormResult }) {
  const fetcher = useFetcher<{ result?: SiteMediaFormResult }>({ key: LIFE_PHOTO_SECTION });
  const result = siteMediaAnswer(fetcher, answer);
  const intent = fetcher.state === "idle" ? null : fetcher.formData?.get("intent");
  return (
    <section id={LIFE_PHOTO_SECTION} className={s.section} aria-labelledby="life-photo-title">
      <h2 id="life-photo-title" className={s.title}>
        Upload a photo for the page
      </h2>
      {photo ? (
        <figure className={s.current}>
          <img
            className={s.preview}
            src={photo.src}
            srcSet={photo.srcSetJpeg}
            sizes="(min-width: 40rem) 36rem, 100vw"
            alt=""
            width={photo.width}
            height={photo.height}
          />
          <figcaption className={s.caption}>
            The photo you uploaded. A photo chosen from the gallery above is shown instead of it.
          </figcaption>
        </figure>
      ) : (
        <p className={s.caption}>Or choose one from the gallery above.</p>
      )}
      {/* A new photo on the page gives a fresh form (the file chosen is not kept). */}
      <fetcher.Form key={photo?.src ?? "none"} method="post" action={LIFE_PHOTO_ACTION} encType="multipart/form-data" preventScrollReset>
        <FormAlert title={PHOTO_FAILED} messages={result?.formErrors} />
        <HintedInput
          id="life-photo-file"
          label="Photo"
          hint="A JPG, PNG, WebP or HEIC photo of up to 25 MB. It is shown at the top of the life story, and is not added to the gallery."
          type="file"
          name="photo"
          accept={PHOTO_ACCEPT}
          className={s.fileInput}
        />
        <SaveButton intent={intent}>Upload Photo</SaveButton>
      </fetcher.Form>
      {photo ? (
        <ResetForm fetcher={fetcher} action={LIFE_PHOTO_ACTION} intent={intent}>
          Remove the uploaded photo
        </ResetForm>
      ) : null}
    </section>
  );
}
