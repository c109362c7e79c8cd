import * as s from "./admin.css";

type Step = "name" | "service" | "contact" | "photo" | "address" | "donation";

const STEPS: Record<Step, { label: string; to: string }> = {
  name: { label: "Write their name", to: "/admin/site#memorial" },
  service: { label: "Set the day, time and place of the service", to: "/admin/site#service" },
  contact: { label: "Give an e-mail address where people can reach the family", to: "/admin/site#contact" },
  photo: { label: "Choose the photo at the top of the home page", to: "/admin/site#hero-photo" },
  address: { label: "Set the site's public address, for the printed cards and links", to: "/admin/site#address" },
  donation: { label: "Add a donation card with the giving page's link, or save it empty to show none", to: "/admin/site#donation" },
};

/** The admin home's "Make it yours": what a new memorial still shows of the example site (or lacks), each a link to where it is changed. */
export function SetupChecklist({ steps }: { steps: readonly Step[] }) {
  if (!steps.length) return null;
  return (
    <section aria-labelledby="setup-checklist-title" className={s.setupChecklist}>
      <h2 id="setup-checklist-title" className={s.sectionTitle}>
        Make it yours
      </h2>
      <p className={s.storageNote}>
        A new memorial shows example details until you change them, and no donation card until you add one. Each line goes once it is done.
      </p>
      <ul className={s.pageIndexList}>
        {steps.map((step) => (
          <li key={step}>
            <a href={STEPS[step].to}>{STEPS[step].label}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
