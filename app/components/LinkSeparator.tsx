import * as ui from "~/styles/ui.css";

/**
 * Between links that sit side by side: " | " for text browsers such as
 * lynx, which draw no CSS and would run "Share a MemoryUpload Photos"
 * together. Graphic browsers hide it (the buttons' own gap parts them), and
 * screen readers skip it (they announce each link on its own).
 */
export function LinkSeparator() {
  return (
    <span aria-hidden="true" className={ui.visuallyHidden}>
      {" | "}
    </span>
  );
}
