import { Outlet } from "@remix-run/react";
import { PublishedTabs } from "~/components/admin/PublishedList";
import * as ui from "~/styles/ui.css";

// The Published tab: what visitors see and what the family has taken back, in
// two lists (memories, photos and videos). Each list's route checks the session.

export default function PublishedTab() {
  return (
    <>
      <h2 className={ui.visuallyHidden}>Published</h2>
      <p className={ui.muted}>
        What visitors see, newest first. Unpublish hides something from visitors and keeps it here, so you can publish it again. Delete
        removes it for good.
      </p>
      <PublishedTabs />
      <Outlet />
    </>
  );
}
