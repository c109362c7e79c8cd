import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientActionFunctionArgs } from "@remix-run/react";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { CheckboxField, Field, FormAlert, formLevelError, Honeypot, TextareaField } from "~/components/forms";
import { ListPages, LoadMoreForm, useLoadMore } from "~/components/LoadMore";
import { MemoryList, type ShownMemory } from "~/components/MemoryList";
import { showToast } from "~/components/Toaster";
import { useT } from "~/components/useT";
import { useServerForm } from "~/components/useServerForm";
import { useSite } from "~/site/site-view";
import type { loader as rootLoader } from "~/root";
import {
  candleSectionHtml,
  json,
  listPublicMemories,
  followFormHtml,
  peekToast,
  mailEnabled,
  memoryForm,
  submitMemory,
  type PublicMemory,
  noStoreHeaders,
  readFormData,
  decodeCursor,
  replyIfRefused,
  redirectWithToast,
  relativeTime,
  voiceFormHtml,
  voiceListHtml,
  pageWords,
  translate,
  visitorLanguage,
} from "~/routes/guestbook.server";
// Used in the browser, so not from the .server module (Remix leaves those out of the client), nor from the zod schema.
import { GUESTBOOK_PAGE_SIZE } from "~/guestbook/memory.constants";
import { LANGUAGE_TAGS } from "~/i18n/languages";
import * as ui from "~/styles/ui.css";
import { itemsToShow, MAX_ITEMS_PER_PAGE } from "~/utils/paging";
import { pageMeta } from "~/site/meta";
import * as s from "./guestbook.css";

const FORM_ID = "guestbook";
/** The fields a refusal can name, in the form's order (their names: guestbook.fields). */
const FIELD_NAMES = ["name", "email", "phone", "message"];
/** The form's one-line fields and their input types (autocomplete: "name", "email", "tel"). */
const TEXT_FIELDS = [
  ["name", "text"],
  ["email", "email"],
  ["phone", "tel"],
] as const;

/** "Memory Submitted", in the visitor's language: the toast is written when it is set. */
function submitted(t: (id: string) => string) {
  return { title: t("guestbook.submitted.title"), description: t("guestbook.submitted.description") };
}

export const headers = noStoreHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const language = await visitorLanguage(request);
  const t = translate(language);
  const params = new URL(request.url).searchParams;
  // Without JavaScript, "Load More" asks for the page again with `offset` (how
  // many it shows) and gets everything up to the next ten, so the visitor
  // keeps their place in one list, up to MAX_ITEMS_PER_PAGE; then "Earlier
  // memories →" starts a page after the last one shown (`before`). A cursor
  // this site did not write counts as the newest page.
  const before = decodeCursor(params.get("before") ?? "") ?? undefined;
  const page = listPublicMemories({ limit: itemsToShow(params.get("offset"), GUESTBOOK_PAGE_SIZE), before });
  const now = Date.now();
  return json({
    // "about 2 hours ago" written here, so the page does not load the words for it (Load More fetches them).
    memories: page.items.map((memory) => ({
      ...memory,
      ago: relativeTime(memory.createdAt, now, LANGUAGE_TAGS[language], t("guestbook.list.recently")),
    })),
    next: page.next,
    before: before ? params.get("before") : null,
    now,
    // The form's HTML attributes, from the schema its action parses with (the page loads no zod).
    constraint: memoryForm.constraint,
    // "E-mail me when the family has added my memory" is offered only when the site sends e-mail.
    notifyOffered: mailEnabled(),
    // Plain HTML, so the page loads no code for them (docs/decisions/035): "Leave a voice memory"
    // (its recorder comes on demand), then "Remember with us" once a memory or a voice is sent (the
    // page shows the toast saying so), the candles, and the voices the family published.
    voiceForm: voiceFormHtml(request, "/guestbook", null, { language }),
    afterForm:
      ([t("guestbook.submitted.title"), t("voices.sent.title")].includes((await peekToast(request))?.title ?? "")
        ? (followFormHtml("guestbook-follow", "after-signing", language) ?? "")
        : "") +
      candleSectionHtml(request, "/guestbook#candles", language) +
      voiceListHtml(request, language),
    words: pageWords(language, ["guestbook"]),
    // The page's title and subtitle, written here for the heading and the link preview alike.
    title: t("guestbook.title"),
    subtitle: t("guestbook.subtitle"),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const language = await visitorLanguage(request);
  const t = translate(language);
  const submission = memoryForm.parse(await readFormData(request));
  if (submission.status !== "success") {
    // The summary at the top of the form: each refused field by name, linking to its input.
    const refused = FIELD_NAMES.filter((name) => submission.error?.[name]?.length).map((name) => ({
      id: `${FORM_ID}-${name}`,
      label: t(`guestbook.fields.${name}`),
    }));
    return json({ result: submission.reply(), failed: true, refused }, { status: 400 });
  }
  // A bot filled in the hidden field: thank it and keep nothing.
  if (submission.value.website) return redirectWithToast("/guestbook", submitted(t));

  const refused = replyIfRefused(submission, () => submitMemory(submission.value, { clientIp: context.clientIp }, language));
  if (refused) return refused;
  return redirectWithToast("/guestbook", submitted(t));
}

/**
 * With JavaScript, a dropped connection must not throw away what the visitor
 * wrote: keep the page and the typed text, and say it failed.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { result: undefined, failed: true as const };
  }
}

function WriteMessageForm() {
  const { t, tError } = useT();
  const { constraint, notifyOffered } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction === "/guestbook";
  const { formProps, formErrors, control } = useServerForm<"name" | "email" | "phone" | "message" | "canDisplay" | "notifyWhenPublished">(
    FORM_ID,
    constraint,
    {
      lastResult: actionData && actionData.result,
      defaultValue: { canDisplay: true },
      focusFirstRefused: false,
    },
  );
  const message = control("message", "textarea");
  const canDisplay = control("canDisplay", "checkbox");
  const notify = control("notifyWhenPublished", "checkbox");

  useEffect(() => {
    // The real reason when the server gave one (too many, storage full), else the spec's words.
    if (actionData && actionData.failed)
      showToast({
        title: t("guestbook.failed.title"),
        description: tError(formLevelError(actionData.result) || "") || t("guestbook.failed.description"),
        type: "destructive",
      });
  }, [actionData, t, tError]);

  return (
    <Form method="post" action="/guestbook" {...formProps} className={s.form}>
      <FormAlert
        title={t("guestbook.failed.title")}
        messages={formErrors || (actionData && actionData.failed ? [t("guestbook.failed.description")] : undefined)}
        fields={actionData && "refused" in actionData ? actionData.refused : undefined}
      />
      {/* Name, e-mail and phone: each an input of its type, its browser's autofill named alike. */}
      {TEXT_FIELDS.map(([name, type]) => {
        const field = control(name, type);
        return (
          <Field
            key={name}
            label={t(`guestbook.form.${name}`)}
            errors={field.errors}
            errorId={field.errorId}
            inputProps={{ ...field.props, autoComplete: type === "text" ? name : type }}
          />
        );
      })}
      <TextareaField label={t("guestbook.form.message")} errors={message.errors} errorId={message.errorId} textareaProps={message.props} />
      <CheckboxField
        label={t("guestbook.form.canDisplay")}
        errors={canDisplay.errors}
        errorId={canDisplay.errorId}
        inputProps={canDisplay.props}
      />
      {notifyOffered ? (
        <CheckboxField label={t("guestbook.form.notify")} errors={notify.errors} errorId={notify.errorId} inputProps={notify.props} />
      ) : null}
      <Honeypot />
      <button type="submit" className={ui.button.primary} disabled={submitting}>
        {t(submitting ? "guestbook.form.submitting" : "guestbook.form.submit")}
      </button>
      <p className={s.privacy}>{useSite().privacyNote}</p>
    </Form>
  );
}

function SharedMemories() {
  const { t, language } = useT();
  const { memories, next, before, now } = useLoaderData<typeof loader>();
  // Fresh server data (after a submission, or a no-JS "Load More") replaces what was appended.
  const more = useLoadMore<ShownMemory>({
    initial: memories,
    next,
    pageUrl: (cursor) => `/api/guestbook?limit=${GUESTBOOK_PAGE_SIZE}&before=${cursor}`,
    receive: async (items) =>
      (await import("~/utils/relative-time")).withAgo(items as PublicMemory[], now, LANGUAGE_TAGS[language], t("guestbook.list.recently")),
  });
  const shown = more.items.length;
  const full = shown >= MAX_ITEMS_PER_PAGE;
  const newest = before ? { to: "/guestbook#memories-title", text: t("guestbook.list.newest") } : null;
  const earlier = more.next && full ? { to: `/guestbook?before=${more.next}#memories-title`, text: t("guestbook.list.earlier") } : null;
  return (
    <>
      <ListPages label={t("guestbook.list.newer")} newest={newest} above />
      <MemoryList
        memories={more.items}
        label={t("guestbook.list.label")}
        emptyText={t(before ? "guestbook.list.noEarlier" : "guestbook.list.empty")}
      />
      {more.next && !full ? (
        <LoadMoreForm
          action={`/guestbook#memory-${shown + 1}`}
          offset={shown}
          status={more.status}
          onLoad={more.load}
          label={t("guestbook.list.loadMore")}
        >
          {before ? <input type="hidden" name="before" value={before} /> : null}
        </LoadMoreForm>
      ) : null}
      <ListPages label={t("guestbook.list.pages")} newest={newest} earlier={earlier} />
    </>
  );
}

export default function GuestbookPage() {
  const { t } = useT();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { voiceForm, afterForm, title, subtitle } = useLoaderData<typeof loader>();
  useEffect(() => {
    void import("~/components/VoiceRecorder").then((recorder) => recorder.default());
  }, []);
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>{title}</h1>
        <p className={ui.subtitle}>{subtitle}</p>
      </div>
      <section className={s.section} aria-labelledby="write-title">
        <h2 id="write-title">{t("guestbook.writeTitle")}</h2>
        {/* A successful submission redirects with a new confirmation: a new key gives a
            fresh, empty form. After a failed one, the action's reply restores what was typed. */}
        {/* Written without ?. and ??: the build spells those out for Safari 12 at twice the length, and the page is at its budget. */}
        <WriteMessageForm key={root && root.toast ? root.toast.id : "form"} />
      </section>
      {/* Its own box: the same markup on every answer, so React never replaces it under a recording. */}
      <div className={s.section} dangerouslySetInnerHTML={{ __html: voiceForm }} />
      <div className={s.section} dangerouslySetInnerHTML={{ __html: afterForm }} />
      <section className={s.section} aria-labelledby="memories-title">
        <h2 id="memories-title">{t("guestbook.memoriesTitle")}</h2>
        <SharedMemories />
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, { title: data && data.title, description: data && data.subtitle, path: "/guestbook" });
