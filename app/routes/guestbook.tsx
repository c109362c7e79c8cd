import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ClientActionFunctionArgs } from "@remix-run/react";
import { Form, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { CheckboxField, Field, FormAlert, formLevelError, Honeypot, TextareaField } from "~/components/forms";
import { ListPages, LoadMoreForm, useLoadMore } from "~/components/LoadMore";
import { MemoryList, type ShownMemory } from "~/components/MemoryList";
import { showToast } from "~/components/Toaster";
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
  VOICE_SENT,
} from "~/routes/guestbook.server";
// Used in the browser, so not from the .server module (Remix leaves those out of the client), nor from the zod schema.
import { GUESTBOOK_PAGE_SIZE } from "~/guestbook/memory.constants";
import * as ui from "~/styles/ui.css";
import { itemsToShow, MAX_ITEMS_PER_PAGE } from "~/utils/paging";
import { pageMeta } from "~/site/meta";
import * as s from "./guestbook.css";

const SUBMITTED = {
  title: "Memory Submitted",
  description: "Thank you for sharing your memory. It will be reviewed before being published.",
};
const FAILED = { title: "Error", description: "Failed to submit memory. Please try again." };
const FORM_ID = "guestbook";
/** The fields a refusal can name, in the form's order. */
const FIELD_NAMES = { name: "Name", email: "Email", phone: "Phone", message: "Your Memory" };

export const headers = noStoreHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
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
    memories: page.items.map((memory) => ({ ...memory, ago: relativeTime(memory.createdAt, now) })),
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
    voiceForm: voiceFormHtml(request, "/guestbook"),
    afterForm:
      ([SUBMITTED.title, VOICE_SENT.title].includes((await peekToast(request))?.title ?? "")
        ? (followFormHtml("guestbook-follow", "after-signing") ?? "")
        : "") +
      candleSectionHtml(request, "/guestbook#candles") +
      voiceListHtml(request),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = memoryForm.parse(await readFormData(request));
  if (submission.status !== "success") {
    // The summary at the top of the form: each refused field by name, linking to its input.
    const refused = Object.entries(FIELD_NAMES)
      .filter(([name]) => submission.error?.[name]?.length)
      .map(([name, label]) => ({ id: `${FORM_ID}-${name}`, label }));
    return json({ result: submission.reply(), failed: true, refused }, { status: 400 });
  }
  // A bot filled in the hidden field: thank it and keep nothing.
  if (submission.value.website) return redirectWithToast("/guestbook", SUBMITTED);

  const refused = replyIfRefused(submission, () => submitMemory(submission.value, { clientIp: context.clientIp }));
  if (refused) return refused;
  return redirectWithToast("/guestbook", SUBMITTED);
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
  const controls = {
    name: control("name", "text"),
    email: control("email", "email"),
    phone: control("phone", "tel"),
    message: control("message", "textarea"),
    canDisplay: control("canDisplay", "checkbox"),
    notifyWhenPublished: control("notifyWhenPublished", "checkbox"),
  };

  useEffect(() => {
    // The real reason when the server gave one (too many, storage full), else the spec's words.
    if (actionData && actionData.failed)
      showToast({ title: FAILED.title, description: formLevelError(actionData.result) || FAILED.description, type: "destructive" });
  }, [actionData]);

  return (
    <Form method="post" action="/guestbook" {...formProps} className={s.form}>
      <FormAlert
        title={FAILED.title}
        messages={formErrors || (actionData && actionData.failed ? [FAILED.description] : undefined)}
        fields={actionData && "refused" in actionData ? actionData.refused : undefined}
      />
      <Field
        label="Name *"
        errors={controls.name.errors}
        errorId={controls.name.errorId}
        inputProps={{ ...controls.name.props, autoComplete: "name" }}
      />
      <Field
        label="Email *"
        errors={controls.email.errors}
        errorId={controls.email.errorId}
        inputProps={{ ...controls.email.props, autoComplete: "email" }}
      />
      <Field
        label="Phone (Optional)"
        errors={controls.phone.errors}
        errorId={controls.phone.errorId}
        inputProps={{ ...controls.phone.props, autoComplete: "tel" }}
      />
      <TextareaField
        label="Your Memory *"
        errors={controls.message.errors}
        errorId={controls.message.errorId}
        textareaProps={controls.message.props}
      />
      <CheckboxField
        label="I give permission to display this memory publicly"
        errors={controls.canDisplay.errors}
        errorId={controls.canDisplay.errorId}
        inputProps={controls.canDisplay.props}
      />
      {notifyOffered ? (
        <CheckboxField
          label="E-mail me when the family has added my memory"
          errors={controls.notifyWhenPublished.errors}
          errorId={controls.notifyWhenPublished.errorId}
          inputProps={controls.notifyWhenPublished.props}
        />
      ) : null}
      <Honeypot />
      <button type="submit" className={ui.button.primary} disabled={submitting}>
        {submitting ? "Submitting..." : "Submit Memory"}
      </button>
      <p className={s.privacy}>{useSite().privacyNote}</p>
    </Form>
  );
}

const NEWEST_MEMORIES = { to: "/guestbook#memories-title", text: "← Newest memories" };

function SharedMemories() {
  const { memories, next, before, now } = useLoaderData<typeof loader>();
  // Fresh server data (after a submission, or a no-JS "Load More") replaces what was appended.
  const more = useLoadMore<ShownMemory>({
    initial: memories,
    next,
    pageUrl: (cursor) => `/api/guestbook?limit=${GUESTBOOK_PAGE_SIZE}&before=${cursor}`,
    receive: async (items) => {
      const { relativeTime } = await import("~/utils/relative-time");
      return (items as PublicMemory[]).map((memory) => ({ ...memory, ago: relativeTime(memory.createdAt, now) }));
    },
  });
  const shown = more.items.length;
  const full = shown >= MAX_ITEMS_PER_PAGE;
  const newest = before ? NEWEST_MEMORIES : null;
  const earlier = more.next && full ? { to: `/guestbook?before=${more.next}#memories-title`, text: "Earlier memories →" } : null;
  return (
    <>
      <ListPages label="Newer memories" newest={newest} above />
      <MemoryList memories={more.items} emptyText={before ? "No earlier memories." : undefined} />
      {more.next && !full ? (
        <LoadMoreForm
          action={`/guestbook#memory-${shown + 1}`}
          offset={shown}
          status={more.status}
          onLoad={more.load}
          label="Load More Memories"
        >
          {before ? <input type="hidden" name="before" value={before} /> : null}
        </LoadMoreForm>
      ) : null}
      <ListPages label="Pages of memories" newest={newest} earlier={earlier} />
    </>
  );
}

export default function GuestbookPage() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { voiceForm, afterForm } = useLoaderData<typeof loader>();
  useEffect(() => {
    void import("~/components/VoiceRecorder").then((recorder) => recorder.default());
  }, []);
  return (
    <div className={ui.narrow}>
      <div className={ui.pageHeader}>
        <h1>Guest Book</h1>
        <p className={ui.subtitle}>Share your memories and messages of love.</p>
      </div>
      <section className={s.section} aria-labelledby="write-title">
        <h2 id="write-title">Write a Message</h2>
        {/* A successful submission redirects with a new confirmation: a new key gives a
            fresh, empty form. After a failed one, the action's reply restores what was typed. */}
        {/* Written without ?. and ??: the build spells those out for Safari 12 at twice the length, and the page is at its budget. */}
        <WriteMessageForm key={root && root.toast ? root.toast.id : "form"} />
      </section>
      {/* Its own box: the same markup on every answer, so React never replaces it under a recording. */}
      <div className={s.section} dangerouslySetInnerHTML={{ __html: voiceForm }} />
      <div className={s.section} dangerouslySetInnerHTML={{ __html: afterForm }} />
      <section className={s.section} aria-labelledby="memories-title">
        <h2 id="memories-title">Shared Memories</h2>
        <SharedMemories />
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, {
    title: "Guest Book",
    description: "Share your memories and messages of love.",
    path: "/guestbook",
  });
