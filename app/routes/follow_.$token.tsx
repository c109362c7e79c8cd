import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { RouteHandle } from "~/root";
import { confirmFollow, json, PRIVATE_NO_STORE, TOPIC_LABELS } from "~/routes/follow.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";

// /follow/{token}: the link in the confirmation e-mail. Opening it is the
// confirmation the request waits for (double opt-in): from then on the
// follower gets what they chose, each e-mail with its own link to stop. The
// token (192 random bits, only its hash kept) is the proof, so the page is
// open on a private site too, and it never reaches another site in a
// Referer. The request log never prints it.

export const handle: RouteHandle = { hydrate: false };

export const headers: HeadersFunction = () => ({ "Cache-Control": PRIVATE_NO_STORE, "Referrer-Policy": "same-origin" });

export function loader({ params }: LoaderFunctionArgs) {
  const follower = confirmFollow(params.token ?? "");
  // What they follow, in words (the page carries no labels of its own).
  const confirmed = follower ? { name: follower.name, topics: follower.topics.map((topic) => TOPIC_LABELS[topic]) } : null;
  return json({ confirmed }, { status: confirmed ? 200 : 404, headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export default function ConfirmFollow() {
  const { confirmed } = useLoaderData<typeof loader>();
  const { personName } = useSite();
  if (!confirmed) {
    return (
      <div className={ui.narrow}>
        <div className={ui.pageHeader}>
          <h1>This link has expired</h1>
        </div>
        <p>This link is not known here. It may be more than a week old, or mistyped.</p>
        <p>
          <Link to="/follow">Ask again to be kept posted</Link>: a new e-mail with a new link will be sent.
        </p>
      </div>
    );
  }
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Thank you, {confirmed.name}</h1>
        <p className={ui.subtitle} role="status">
          You will hear from the memorial of {personName} about:
        </p>
      </div>
      <ul>
        {confirmed.topics.map((topic) => (
          <li key={topic}>{topic}</li>
        ))}
      </ul>
      <p>Every e-mail has a link at its foot to stop, with one click, whenever you like.</p>
      <p>
        <Link to="/">Back to the memorial</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Remember with us", description: "Confirm e-mail from the memorial.", path: "/follow" });
