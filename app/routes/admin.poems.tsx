import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, Outlet, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { requireAdmin, requireFamily } from "~/admins/session.server";
import * as s from "~/components/admin/admin.css";
import { Field, FormAlert, formLevelError, TextareaField } from "~/components/forms";
import { showToast } from "~/components/Toaster";
import { useZodForm } from "~/components/useZodForm";
import { createPoem, getPoem, listPoems } from "~/poems/poem.server";
import { DELETE_POEM_FAILED as DELETE_FAILED, POEM_CREATED, PoemInput } from "~/poems/poem.schema";
import type { loader as rootLoader } from "~/root";
import * as ui from "~/styles/ui.css";
import { PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { replyIfRefused } from "~/platform/refusal.server";
import { useSite } from "~/site/site-view";
import { formatDateTime } from "~/utils/time";
import { redirectWithToast } from "~/platform/toast.server";

const CREATE_FAILED = { title: "Error", description: "Failed to create poem." };

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  // A helper adds poems; deleting one is the family's (its page answers her 403), so she is not offered it.
  return json({ poems: listPoems(), canDelete: admin.role === "family" }, { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (intent === "delete") {
    await requireFamily(request);
    // Deleting asks first, on its own page (a form from a page before it did goes there too);
    // a poem that is not there (deleted meanwhile) is said at once.
    const id = idParam(String(form.get("id") ?? ""));
    return id && getPoem(id) ? redirect(`/admin/poems/${id}/delete`) : redirectWithToast("/admin/poems", DELETE_FAILED);
  }
  if (intent !== "create") return redirectWithToast("/admin/poems", { ...CREATE_FAILED, type: "destructive" });
  const submission = parseWithZod(form, { schema: PoemInput });
  if (submission.status !== "success") return json({ result: submission.reply(), failed: true }, { status: 400 });
  const refused = replyIfRefused(submission, () => createPoem(submission.value, admin));
  if (refused) return refused;
  return redirectWithToast("/admin/poems", POEM_CREATED);
}

function AddPoemForm() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const adding = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const { form, control } = useZodForm("add-poem", PoemInput, { lastResult: actionData?.result });
  const [title, author, content] = [control("title", "text"), control("author", "text"), control("content", "textarea")];
  useEffect(() => {
    if (actionData?.failed)
      showToast({ ...CREATE_FAILED, description: formLevelError(actionData.result) ?? CREATE_FAILED.description, type: "destructive" });
  }, [actionData]);
  // The spec's "Failed to create poem." above the form, with the reason when there is one (also without JavaScript).
  const failure = actionData?.failed && navigation.state === "idle" ? [CREATE_FAILED.description, ...(form.errors ?? [])] : form.errors;
  return (
    <Form method="post" action="/admin/poems" {...getFormProps(form)} className={s.form}>
      <h2 className={s.sectionTitle}>Add New Poem</h2>
      <FormAlert title={CREATE_FAILED.title} messages={failure} />
      <Field label="Title" errors={title.errors} errorId={title.errorId} inputProps={title.props} />
      <Field label="Author (Optional)" errors={author.errors} errorId={author.errorId} inputProps={author.props} />
      <TextareaField label="Content" errors={content.errors} errorId={content.errorId} textareaProps={content.props} />
      <button type="submit" name="intent" value="create" className={ui.button.primary} disabled={adding}>
        {adding ? "Adding Poem..." : "Add Poem"}
      </button>
    </Form>
  );
}

export default function PoemsTab() {
  const { poems, canDelete } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <>
      {/* "Delete this poem?" (admin/poems/:id/delete) opens above the page. */}
      <Outlet />
      {/* A new confirmation (after adding) gives a fresh, empty form. */}
      <AddPoemForm key={root?.toast?.id ?? "form"} />
      <h2>Manage Existing Poems ({poems.length})</h2>
      {poems.length === 0 ? (
        <p className={ui.emptyState}>No poems have been added yet.</p>
      ) : (
        <ul className={s.poemList}>
          {poems.map((poem) => (
            <li key={poem.id} className={s.poemCard}>
              <h3 className={s.sectionTitle}>{poem.title}</h3>
              {poem.author ? <p className={ui.muted}>By {poem.author}</p> : null}
              <p className={ui.muted}>Added on {formatDateTime(poem.createdAt, timeZone)}</p>
              <p className={s.poemContent}>{poem.content}</p>
              {/* Asks first: a page of its own without JavaScript, a dialog with it. */}
              {canDelete ? (
                <Link
                  to={`/admin/poems/${poem.id}/delete`}
                  className={ui.button.danger}
                  preventScrollReset
                  aria-label={`Delete the poem ${poem.title}`}
                >
                  Delete
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
