import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { signMultipartPart } from "~/uploads/upload-parts.server";
import { methodNotAllowed, NO_STORE, siteOrigin } from "~/platform/http.server";
import { answerRefusals } from "~/platform/refusal.server";

/** GET …/{uploadId}/{partNumber}?key= → {url}: where to PUT that part. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerRefusals(async () => {
    const key = new URL(request.url).searchParams.get("key");
    const signed = await signMultipartPart(key, params.uploadId!, params.partNumber, siteOrigin(request));
    return json(signed, { headers: { "Cache-Control": NO_STORE } });
  });
}

export const action = () => methodNotAllowed("GET");
