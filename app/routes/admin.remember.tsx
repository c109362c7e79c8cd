import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import { ComingDays, FollowerList, RemindersForm } from "~/components/admin/RememberSections";
import { REMINDERS_SAVED, RemembranceForm, splitRemembranceLanguages } from "~/remembrance/remembrance.schema";
import { getRemembranceTranslations, writeRemembrance, writeRemembranceTranslations } from "~/remembrance/remembrance.server";
import {
  RemembranceWordsForm,
  WORDS_TRANSLATIONS_ANCHOR,
  WORDS_TRANSLATIONS_INTENT,
  type WordsTranslationsReply,
} from "~/components/admin/RemembranceWordsForm";
import { getSiteSettings } from "~/site/settings.server";
import type { AdminActor } from "~/platform/actor.server";
import { rememberTab } from "~/remembrance/remember-tab.server";
import type { loader as rootLoader } from "~/root";
import { invariantResponse, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { replyIfRefused } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";
import { useSite } from "~/site/site-view";

// The Remember tab: the family's yearly reminders (the same schema and
// model function as `remembrance` in PATCH /api/admin/settings), the days
// they fall on next, and the people who follow the memorial by e-mail (the
// same list as GET /api/admin/followers), each of whom the family may remove.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamily(request);
  const { languages, mainLanguage } = getSiteSettings();
  return json(
    {
      ...rememberTab(),
      mainLanguage,
      otherLanguages: languages.filter((language) => language !== mainLanguage),
      wordsTranslations: getRemembranceTranslations(),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

/** The reminders' words in the site's other languages: one box each, an empty one removed. */
function saveWordsTranslations(form: FormData, admin: AdminActor) {
  const { languages, mainLanguage } = getSiteSettings();
  const values = Object.fromEntries(
    languages.filter((language) => language !== mainLanguage).map((language) => [language, String(form.get(language) ?? "")]),
  );
  const split = splitRemembranceLanguages(
    { translations: Object.fromEntries(Object.entries(values).map(([l, words]) => [l, { words }])) },
    mainLanguage,
  );
  if (Object.keys(split.errors).length > 0) {
    const errors = Object.fromEntries(Object.entries(split.errors).map(([name, messages]) => [name.split(".")[1]!, messages]));
    return json({ form: "words", values, errors } satisfies WordsTranslationsReply, { status: 400 });
  }
  admin.commit((tx) => writeRemembranceTranslations(tx, split.patch, admin.username));
  return redirectWithToast(`/admin/remember#${WORDS_TRANSLATIONS_ANCHOR}`, REMINDERS_SAVED);
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamily(request);
  const form = await readFormData(request);
  if (form.get("intent") === WORDS_TRANSLATIONS_INTENT) return saveWordsTranslations(form, admin);
  invariantResponse(form.get("intent") === "save", "This form does not know what to do. Please go back, reload the page and try again.", {
    status: 400,
  });
  const submission = parseWithZod(form, { schema: RemembranceForm });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const refused = replyIfRefused(submission, () => admin.commit((tx) => writeRemembrance(tx, submission.value, admin.username)));
  return refused ?? redirectWithToast("/admin/remember", REMINDERS_SAVED);
}

export default function RememberTab() {
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const wordsReply = answer && "form" in answer ? (answer as WordsTranslationsReply) : undefined;
  const actionData = answer && "result" in answer ? answer : undefined;
  const navigation = useNavigation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { timeZone } = useSite();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  return (
    <>
      {/* "Remove …?" (admin/remember/:id/remove) opens above the page. */}
      <Outlet />
      <RemindersForm
        // A save's confirmation gives the form afresh from what was saved.
        key={root?.toast?.id ?? "form"}
        remembrance={data.remembrance}
        lastResult={actionData?.result}
        saving={saving}
        timeZone={timeZone}
      />
      <RemembranceWordsForm
        key={JSON.stringify(data.wordsTranslations)}
        languages={data.otherLanguages}
        mainLanguage={data.mainLanguage}
        words={data.remembrance.words}
        translations={data.wordsTranslations}
        reply={wordsReply}
      />
      <ComingDays remembrance={data.remembrance} known={data.known} upcoming={data.upcoming} timeZone={timeZone} />
      <FollowerList
        count={data.count}
        waiting={data.waiting}
        followers={data.followers}
        mailEnabled={data.mailEnabled}
        timeZone={timeZone}
      />
    </>
  );
}
