import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, Outlet, useLoaderData, useLocation, useNavigation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { requireAdmin } from "~/admins/session.server";
import { countPendingMemories } from "~/guestbook/memory.server";
import { getRsvpStats } from "~/attendance/rsvp.server";
import { countPendingUploads } from "~/uploads/upload.server";
import { countSetAside } from "~/routes/set-aside.server";
import { SET_ASIDE_VIEW } from "~/utils/set-aside";
import { readFirstFor } from "~/routes/read-first.server";
import * as ui from "~/styles/ui.css";
import { pageMeta } from "~/site/meta";
import { loaderCacheControl, PRIVATE_NO_STORE } from "~/platform/http.server";
import * as s from "~/components/admin/admin.css";
import { FamilyOnly, isForbidden } from "~/components/admin/FamilyOnly";

// The Admin Panel's layout: header, Logout and the tabs (the spec's five, what is published, the family's
// Site tab and the printed cards) around the tab's own route. Without a session every admin page goes to /admin/login.
// A helper sees only her tabs (app/admins/roles.ts); the family's pages answer her with a 403 page.

export const headers = loaderCacheControl;

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const family = admin.role === "family";
  return json(
    {
      admin: { username: admin.username, role: admin.role },
      counts: {
        memories: countPendingMemories(),
        uploads: countPendingUploads(),
        attendance: getRsvpStats().totalRsvps,
        // What helpers set aside is the family's to see, and only theirs.
        setAside: family ? countSetAside() : 0,
      },
      // While helpers read first, what waits is theirs: the family's counts are plain, never marked as work.
      readFirst: readFirstFor(admin),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

/**
 * A tab is a link to a nested route, so it works without JavaScript and can be bookmarked.
 * Its label is one span: the link is a flex box, which would make a count a separate item,
 * dropping the space before it and reading "Pending Memories" and "(1)" apart.
 */
function Tab({ to, active, children }: { to: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link to={to} className={active ? `${s.tab} ${s.activeTab}` : s.tab} aria-current={active ? "page" : undefined}>
      <span>{children}</span>
    </Link>
  );
}

/**
 * A count of items waiting for the admin: marked out while there is work, so a total (Attendance) never looks like it.
 * `plain`: the family while helpers read first (the work is the helpers').
 */
function WaitingCount({ count, plain }: { count: number; plain: boolean }) {
  return <span className={count > 0 && !plain ? s.waitingCount : undefined}>({count})</span>;
}

/** After the five every admin has: the family's own tabs, or a helper's (her e-mail and her password). */
const FAMILY_TABS = [
  [SET_ASIDE_VIEW, "Set aside"],
  ["/admin/life", "Life Story"],
  ["/admin/exports", "Exports"],
  ["/admin/email", "E-mail"],
  ["/admin/remember", "Remember"],
  ["/admin/site", "Site"],
  ["/admin/print", "Print"],
] as const;
const HELPER_TABS = [
  ["/admin/email", "E-mail"],
  ["/admin/account", "Account"],
] as const;

export default function AdminLayout() {
  const { counts, admin, readFirst } = useLoaderData<typeof loader>();
  const family = admin.role === "family";
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const section = pathname.split("/")[2] ?? "";
  // The spec's local flag, kept for fidelity only: the server session decides everything.
  useEffect(() => {
    try {
      window.localStorage.setItem("adminSession", "true");
    } catch {
      // Storage may be unavailable (private browsing); nothing depends on it.
    }
  }, []);

  const loggingOut = navigation.state === "submitting" && navigation.formAction === "/admin/logout";
  return (
    <div className={ui.container}>
      <div className={s.header}>
        <div>
          <h1 className={s.title}>Admin Panel</h1>
          <p className={ui.subtitle}>Manage memories and uploads</p>
        </div>
        <Form method="post" action="/admin/logout">
          <button type="submit" className={ui.button.secondary} disabled={loggingOut}>
            Logout
          </button>
        </Form>
      </div>
      <nav aria-label="Admin sections" className={s.tabs}>
        <Tab to="/admin" active={section === "" || section === "memories"}>
          Pending Memories <WaitingCount count={counts.memories} plain={readFirst} />
        </Tab>
        <Tab to="/admin/uploads" active={section === "uploads"}>
          Pending Uploads <WaitingCount count={counts.uploads} plain={readFirst} />
        </Tab>
        <Tab to="/admin/published" active={section === "published"}>
          Published
        </Tab>
        <Tab to="/admin/attendance" active={section === "attendance"}>
          {/* A total, not work waiting: plain, unlike the two counts above. */}
          Attendance ({counts.attendance})
        </Tab>
        <Tab to="/admin/poems" active={section === "poems"}>
          Poems
        </Tab>
        {(family ? FAMILY_TABS : HELPER_TABS).map(([to, label]: readonly [string, string]) => (
          <Tab key={to} to={to} active={section === to.split("/")[2]}>
            {/* Kept for the family to open when they choose: a plain count, never marked as work waiting. */}
            {to === SET_ASIDE_VIEW ? `${label} (${counts.setAside})` : label}
          </Tab>
        ))}
      </nav>
      <div className={s.panel}>
        <Outlet />
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  pageMeta(matches, { title: "Admin", description: "The family's moderation panel.", path: "/admin" });

/**
 * A helper at a family-only page (or an admin whose role changed while a form
 * was on its way): the polite 403 page, nothing of the page behind it. Any
 * other error goes on to the root's boundary (its not-found page, its apology).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403 && isForbidden(error.data)) return <FamilyOnly message={error.data.forbidden} />;
  throw error;
}
