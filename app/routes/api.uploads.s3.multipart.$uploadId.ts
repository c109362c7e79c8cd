import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { abortMultipartUpload, listMultipartParts } from "~/uploads/upload-parts.server";
import { methodNotAllowed, NO_STORE } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

const keyOf = (request: Request) => new URL(request.url).searchParams.get("key");

/** GET …/{uploadId}?key= → the parts already stored, so a resumed upload sends only the rest. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerRefusals(async () =>
    json(await listMultipartParts(keyOf(request), params.uploadId!), { headers: { "Cache-Control": NO_STORE } }),
  );
}

/** DELETE …/{uploadId}?key= cancels the upload and frees its parts. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("GET, DELETE");
  return answerRefusals(async () => {
    await abortMultipartUpload(keyOf(request), params.uploadId!);
    return json({});
  });
}
