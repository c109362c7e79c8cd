import { Link } from "@remix-run/react";
import { FAMILY_ONLY_PAGE } from "~/admins/roles";
import * as ui from "~/styles/ui.css";

/** What a 403 from the admin panel (session.server.ts) carries: the sentence to show. */
export const isForbidden = (data: unknown): data is { forbidden: string } =>
  typeof data === "object" && data !== null && typeof (data as { forbidden?: unknown }).forbidden === "string";

/**
 * The polite answer to a helper who opens a family-only page or sends one of
 * its forms (nothing of the page is shown, nothing was changed), or to an
 * admin whose role changed while a form was on its way.
 */
export function FamilyOnly({ message }: { message: string }) {
  const familyOnly = message === FAMILY_ONLY_PAGE.text;
  return (
    <div className={ui.narrow}>
      <div className={ui.emptyState}>
        <h1>{familyOnly ? FAMILY_ONLY_PAGE.title : "Nothing was changed"}</h1>
        <p>{message}</p>
        <p>
          <Link to="/admin" className={ui.button.secondary}>
            Back to the admin panel
          </Link>
        </p>
      </div>
    </div>
  );
}
