import { Form, useNavigation } from "@remix-run/react";
import { CheckboxField } from "~/components/forms";
import { READ_FIRST_LABEL, READ_FIRST_SECTION } from "~/site/read-first.schema";
import { SETTINGS_SAVED } from "~/site/settings-sections";
import * as ui from "~/styles/ui.css";
import * as f from "../forms.css";
import * as s from "./admin.css";

const ID = `site-${READ_FIRST_SECTION}`;

/**
 * The Site tab's "Let helpers read first": one checkbox in a plain form
 * (posting to the tab, section=helpers), which says what it does, and that
 * it does nothing until there is a helper.
 */
export function ReadFirstForm({ on, helpers, saved }: { on: boolean; helpers: number; saved: boolean }) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("section") === READ_FIRST_SECTION;
  return (
    <section id={READ_FIRST_SECTION} aria-labelledby={`${ID}-title`}>
      <Form method="post" action={`/admin/site#${READ_FIRST_SECTION}`} className={s.form}>
        <h2 id={`${ID}-title`} className={s.sectionTitle}>
          Helpers
        </h2>
        {saved && !saving ? (
          <p role="status" className={s.savedNote}>
            <strong>{SETTINGS_SAVED.title}.</strong>
          </p>
        ) : null}
        <input type="hidden" name="section" value={READ_FIRST_SECTION} />
        <CheckboxField
          label={READ_FIRST_LABEL}
          errors={undefined}
          errorId={`${ID}-error`}
          inputProps={{
            id: `${ID}-helpersReadFirst`,
            name: "helpersReadFirst",
            defaultChecked: on,
            "aria-describedby": `${ID}-hint`,
          }}
        />
        <p id={`${ID}-hint`} className={f.hint}>
          New memories, photos, videos and candles go to your helpers first, and so do the e-mails about them. Your Pending tabs stay quiet:
          what the helpers approve appears in Published, and what they set aside waits, folded, in the Set aside tab. You can still look at
          what is waiting whenever you choose.
          {helpers === 0 ? (
            <strong> There is no helper yet, so this changes nothing until you add one under Family admins below.</strong>
          ) : null}
        </p>
        <button type="submit" className={ui.button.primary} disabled={saving}>
          {saving ? "Saving..." : "Save helpers"}
        </button>
      </Form>
    </section>
  );
}
