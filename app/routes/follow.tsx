import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FollowForm } from "~/components/FollowForm";
import { FormAlert } from "~/components/forms";
import { FOLLOW_SENT } from "~/remembrance/follow.constants";
import {
  followForm,
  followOffer,
  json,
  noStoreHeaders,
  readFormData,
  redirect,
  replyIfRefused,
  requestFollow,
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

export function loader({ request }: LoaderFunctionArgs) {
  return json({ offer: followOffer(), sent: new URL(request.url).searchParams.has("sent") });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  // Without a mail server nothing is kept: the page says the memorial sends no e-mail.
  if (!followOffer()) return redirect("/follow", 303);
  const submission = followForm.parse(form);
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  // A bot filled in the hidden field: answer as to anyone, and keep nothing.
  if (!submission.value.website) {
    const refused = replyIfRefused(submission, () => requestFollow(submission.value, { clientIp: context.clientIp }));
    if (refused) return refused;
  }
  return redirect("/follow?sent", 303);
}

export default function FollowPage() {
  const { offer, sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>()?.result;
  const { personName } = useSite();
  const errors = result?.error ?? {};
  const values = result?.initialValue as { name?: string; email?: string; topics?: string | string[] } | undefined;
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Remember with us</h1>
        <p className={ui.subtitle}>Hear from the family of {personName} by e-mail: only what you choose, and only until you say stop.</p>
      </div>
      {!offer ? (
        <p role="note">This memorial does not send e-mail, so it cannot keep you posted that way. Please come back and visit.</p>
      ) : sent ? (
        <div role="status" className={sent_}>
          <h2>{FOLLOW_SENT.title}</h2>
          <p>{FOLLOW_SENT.description}</p>
        </div>
      ) : (
        <>
          <FormAlert title="Please check the form" messages={errors[""] ?? undefined} />
          <FollowForm
            offer={offer}
            intro={null}
            errors={errors}
            values={values ? { ...values, topics: typeof values.topics === "string" ? [values.topics] : (values.topics ?? []) } : undefined}
          />
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, {
    title: "Remember with us",
    description: "Hear from the family by e-mail: the service, new memories and the days we remember.",
    path: "/follow",
  });
