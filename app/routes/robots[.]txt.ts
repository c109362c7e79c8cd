import { getPrivacy } from "~/site/privacy.server";
import { readOnlyAction } from "~/platform/http.server";

/** What search engines may read: all but the admin panel and the API, or nothing once the family keeps the site out of search. */
const ROBOTS_TXT = {
  public: "User-agent: *\nDisallow: /admin\nDisallow: /api/\n",
  hidden: "User-agent: *\nDisallow: /\n",
};

/** GET /robots.txt, from the family's visibility setting (unlisted and private sites are kept out of search engines). */
export function loader() {
  const { visibility } = getPrivacy();
  return new Response(visibility === "public" ? ROBOTS_TXT.public : ROBOTS_TXT.hidden, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      // A change of visibility shows at once: crawlers ask again each time.
      "Cache-Control": "no-cache",
    },
  });
}

export const action = readOnlyAction;
