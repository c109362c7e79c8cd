import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { memoryFor } from "~/admins/contact-details";
import { AdminDialog } from "~/components/AdminDialog";
import * as d from "~/components/AdminDialog.css";
import { EditedRecord } from "~/components/admin/PublishedList";
import { Field, FormAlert, TextareaField } from "~/components/forms";
import { useZodForm } from "~/components/useZodForm";
// The schema from the client-safe module: the form validates with it in the browser too.
import { MemoryEditSchema, type AdminMemory } from "~/guestbook/memory.schema";
import { getMemory, updateMemory } from "~/guestbook/memory.server";
import * as ui from "~/styles/ui.css";
import { invariantResponse, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { idParam } from "~/utils/moderation";
import { MEMORIES_LIST } from "~/utils/published";
import { MEMORY_CHANGE_FAILED, MEMORY_CORRECTED, publishedReturn } from "~/routes/published-actions.server";
import { replyIfRefused } from "~/platform/refusal.server";
import { useSite } from "~/site/site-view";
import { redirectWithToast } from "~/platform/toast.server";

// Correcting a published memory (a typo in the name, a word in the message):
// a page without JavaScript, a dialog over the list with it. The same schema
// and model function as PATCH /api/admin/memories/{id}.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const memory = getMemory(idParam(params.id) ?? 0);
  invariantResponse(memory, "Not found", { status: 404 });
  return json(
    { memory: memoryFor(admin.role, memory), closeTo: publishedReturn(request, MEMORIES_LIST) },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: MemoryEditSchema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const returnTo = publishedReturn(request, MEMORIES_LIST);
  const id = idParam(params.id);
  let corrected: AdminMemory | undefined;
  const refused = replyIfRefused(submission, () => (corrected = id ? updateMemory(id, submission.value, admin) : undefined));
  if (refused) return refused;
  return redirectWithToast(returnTo, corrected ? MEMORY_CORRECTED : MEMORY_CHANGE_FAILED);
}

export default function EditMemory() {
  const { memory, closeTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const { timeZone } = useSite();
  const { form, control } = useZodForm("edit-memory", MemoryEditSchema, {
    lastResult: actionData?.result,
    defaultValue: { name: memory.name, message: memory.message },
  });
  const [name, message] = [control("name", "text"), control("message", "textarea")];
  const saving = navigation.state === "submitting" && navigation.formAction?.startsWith(location.pathname);
  return (
    <AdminDialog title={`Edit the memory from ${memory.name}`} closeTo={closeTo}>
      <p>Correct the name or the message. What the visitor sent is kept, and admins can read it under the memory.</p>
      <Form method="post" action={`${location.pathname}${location.search}`} {...getFormProps(form)} preventScrollReset>
        <FormAlert title="Not saved" messages={form.errors} />
        <Field label="Name" errors={name.errors} errorId={name.errorId} inputProps={name.props} />
        <TextareaField label="Message" errors={message.errors} errorId={message.errorId} textareaProps={message.props} />
        <div className={d.buttons}>
          <button type="submit" className={ui.button.primary} disabled={saving}>
            {saving ? "Saving..." : "Save correction"}
          </button>
          <Link to={closeTo} className={ui.button.secondary} preventScrollReset>
            Cancel
          </Link>
        </div>
      </Form>
      <EditedRecord memory={memory} timeZone={timeZone} />
    </AdminDialog>
  );
}
