import { Strategy } from "remix-auth/strategy";
import { readJsonObject } from "~/platform/http.server";

/**
 * remix-auth's FormStrategy, for a JSON body: it reads the request's JSON
 * object (with the API's limits: a JSON content type, at most 64 KB, else a
 * 4xx Response is thrown) and hands it to the verify function, which decides
 * who it is. Used by POST /api/admin/login, as FormStrategy is by the login page.
 */
export class JsonStrategy<User> extends Strategy<User, JsonVerifyOptions> {
  name = "json";

  async authenticate(request: Request): Promise<User> {
    const body = await readJsonObject(request);
    return this.verify({ body, request });
  }
}

export interface JsonVerifyOptions {
  /** The request's JSON object, as sent: the verify function checks its fields. */
  body: Record<string, unknown>;
  request: Request;
}
