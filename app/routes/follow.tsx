import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FollowForm } from "~/components/FollowForm";
import { FormAlert } from "~/components/forms";
import { translatorFromMatches, useT } from "~/components/useT";
import {
  followForm,
  followOffer,
  json,
  noStoreHeaders,
  pageWords,
  readFormData,
  redirect,
  replyIfRefused,
  requestFollow,
  visitorLanguage,
} from "~/routes/follow.server";
import { card_ as sent_ } from "~/components/FollowForm.css";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";

// /follow: "Remember with us" on a page of its own. The home page's and the
// guest book's forms post here too; a refusal comes back here with what was
// typed and each field's message, and a request is answered the same way
// whether or not the address already follows: check your e-mail.

export const headers = noStoreHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  return json({
    offer: followOffer(),
    sent: new URL(request.url).searchParams.has("sent"),
    words: pageWords(await visitorLanguage(request), ["follow"]),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  // Without a mail server nothing is kept: the page says the memorial sends no e-mail.
  if (!followOffer()) return redirect("/follow", 303);
  const submission = followForm.parse(form);
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  // A bot filled in the hidden field: answer as to anyone, and keep nothing.
  if (!submission.value.website) {
    const language = await visitorLanguage(request);
    const refused = replyIfRefused(submission, () => requestFollow({ ...submission.value, language }, { clientIp: context.clientIp }));
    if (refused) return refused;
  }
  return redirect("/follow?sent", 303);
}

export default function FollowPage() {
  const { offer, sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>()?.result;
  const { personName } = useSite();
  const words = useT();
  const { t } = words;
  const errors = result?.error ?? {};
  const values = result?.initialValue as { name?: string; email?: string; topics?: string | string[] } | undefined;
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{t("follow.title")}</h1>
        <p className={ui.subtitle}>{t("follow.page.subtitle", { name: personName })}</p>
      </div>
      {!offer ? (
        <p role="note">{t("follow.page.noMail")}</p>
      ) : sent ? (
        <div role="status" className={sent_}>
          <h2>{t("follow.sent.title")}</h2>
          <p>{t("follow.sent.description")}</p>
        </div>
      ) : (
        <>
          <FormAlert title={t("follow.page.checkForm")} messages={errors[""]?.map(words.tError) ?? undefined} />
          <FollowForm
            offer={offer}
            intro={null}
            words={words}
            errors={errors}
            values={values ? { ...values, topics: typeof values.topics === "string" ? [values.topics] : (values.topics ?? []) } : undefined}
          />
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => {
  const { t } = translatorFromMatches(matches);
  return pageMeta(matches, { title: t("follow.title"), description: t("follow.page.description"), path: "/follow" });
};
