import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admins/session.server";
import { rsvpStatsFor } from "~/admins/contact-details";
import * as s from "~/components/admin/admin.css";
import { useSite } from "~/site/site-view";
import { getRsvpStats } from "~/attendance/rsvp.server";
import * as ui from "~/styles/ui.css";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { formatShortDateTime } from "~/utils/time";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return json(rsvpStatsFor(admin.role, getRsvpStats()), { headers: { "Cache-Control": PRIVATE_NO_STORE } });
}

export default function AttendanceTab() {
  const { totalRsvps, totalGuests, rsvps } = useLoaderData<typeof loader>();
  const { timeZone } = useSite();
  // A helper's list has no addresses (app/admins/contact-details.ts), and no column for them.
  const withEmail = rsvps.some((rsvp) => rsvp.email !== undefined);
  return (
    <>
      <div className={s.stats}>
        <div className={s.stat}>
          <h2 className={s.sectionTitle}>Memorial Attendees</h2>
          <p className={s.statValue}>{totalRsvps}</p>
          <p className={s.statCaption}>Confirmed attendees</p>
        </div>
        <div className={s.stat}>
          <h2 className={s.sectionTitle}>Total Guests</h2>
          <p className={s.statValue}>{totalGuests}</p>
          <p className={s.statCaption}>Including all guests</p>
        </div>
      </div>
      <h2>Memorial Service Attendance</h2>
      {rsvps.length === 0 ? (
        <p className={ui.emptyState}>No attendance records available.</p>
      ) : (
        <div className={s.tableWrap}>
          <table className={s.table}>
            <caption className={ui.visuallyHidden}>Memorial Service Attendance</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                {withEmail ? <th scope="col">Email</th> : null}
                <th scope="col">Guests</th>
                <th scope="col">Date</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {rsvps.map((rsvp) => (
                <tr key={rsvp.id}>
                  <td data-label="Name">{rsvp.name}</td>
                  {withEmail ? <td data-label="Email">{rsvp.email}</td> : null}
                  <td data-label="Guests">{rsvp.guestCount}</td>
                  <td data-label="Date">{formatShortDateTime(rsvp.createdAt, timeZone)}</td>
                  <td data-label="Notes">{rsvp.notes || <span className={ui.muted}>No notes</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
