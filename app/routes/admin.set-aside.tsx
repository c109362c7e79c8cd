import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import { ConfirmStep } from "~/components/admin/ConfirmStep";
import { SetAsideList, setAsideEntries } from "~/components/admin/SetAsideList";
import * as s from "~/components/admin/admin.css";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { listSetAside, setAsideForm } from "~/routes/set-aside.server";
import { pageMeta } from "~/site/meta";
import { useSite } from "~/site/site-view";
import { SET_ASIDE_VIEW } from "~/utils/set-aside";

// The family's Set aside view: what helpers rejected, kept whole, each item
// folded until it is opened on purpose. Only the family comes here (a helper
// gets the polite 403 page); nothing of it shows anywhere else in the panel.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamily(request);
  return json(listSetAside(), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  return setAsideForm(request);
}

export default function SetAsideTab() {
  const { memories, uploads, candles } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  const answer = useActionData<typeof action>();
  const confirm = answer && "confirm" in answer ? answer : null;
  return (
    <>
      <h2 className={s.sectionTitle}>Set aside by helpers</h2>
      <p className={s.storageNote}>
        What your helpers chose not to publish is kept here, and nowhere else. Each one stays folded until you open it, so you can choose
        when to read it. You can publish it after all, or delete it for good.
      </p>
      <ConfirmStep confirm={confirm?.confirm} action={confirm?.action ?? SET_ASIDE_VIEW} cancelTo={SET_ASIDE_VIEW} />
      <SetAsideList entries={setAsideEntries({ memories, uploads, candles })} timeZone={timeZone} />
    </>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Set aside", description: "What the family's helpers set aside.", path: SET_ASIDE_VIEW });
