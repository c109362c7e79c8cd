import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { answerUploadRefusals, methodNotAllowed, siteOrigin } from "~/media/responses.server";
import { signMultipartPart } from "~/models/upload.server";

/** GET …/{uploadId}/{partNumber}?key= → {url}: where to PUT that part. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerUploadRefusals(async () => {
    const key = new URL(request.url).searchParams.get("key");
    const signed = await signMultipartPart(key, params.uploadId!, params.partNumber, siteOrigin(request));
    return json(signed, { headers: { "Cache-Control": "no-store" } });
  });
}

export const action = () => methodNotAllowed("GET");
