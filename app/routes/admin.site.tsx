import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment, useEffect } from "react";
import { requireFamily } from "~/admins/session.server";
import { config } from "~/platform/config.server";
import * as s from "~/components/admin/admin.css";
import { ErrorSummary } from "~/components/admin/ErrorSummary";
import { FAMILY_ADMINS_ANCHOR, FamilyAdmins } from "~/components/admin/FamilyAdmins";
import { HeroPhotoForm } from "~/components/admin/HeroPhotoForm";
import { KarenSongForm } from "~/components/admin/KarenSongForm";
import { Field, formLevelError, TextareaField } from "~/components/forms";
import { RadioGroupField, SelectField } from "~/components/admin/form-fields";
import { showToast } from "~/components/Toaster";
import { useZodForm } from "~/components/useZodForm";
import {
  isSettingsSection,
  SETTINGS_SAVED,
  SETTINGS_SECTIONS,
  sectionChange,
  sectionSchema,
  type SettingsSection,
} from "~/site/settings-sections";
import type { SettingField } from "~/site/settings.schema";
import { getSiteSettings, getTranslations, getVisitorPasscode, updateSiteSettings } from "~/site/settings.server";
import { CheckboxGroupField } from "~/components/admin/CheckboxGroupField";
import { TranslationsForm } from "~/components/admin/TranslationsForm";
import { TRANSLATIONS_SECTION } from "~/site/translations";
import { saveTranslations } from "~/site/translations.server";
import { isLanguage } from "~/i18n/languages";
import { withServiceNews } from "~/remembrance/follower-news.server";
import { HERO_PHOTO_SECTION, KAREN_SONG_SECTION } from "~/site/site-media.schema";
import * as ui from "~/styles/ui.css";
import { FIELDS, SECTIONS } from "~/components/admin/site-tab-fields";
import { loadFamilyAdmins } from "~/routes/family-admins.server";
import { loaderCacheControl, PRIVATE_NO_STORE, readFormData } from "~/platform/http.server";
import { pageMeta } from "~/site/meta";
import { asRefusal } from "~/platform/refusal.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { AdminActor } from "~/platform/actor.server";
import { ReadFirstForm } from "~/components/admin/ReadFirstForm";
import { READ_FIRST_SECTION, ReadFirstFormSchema } from "~/site/read-first.schema";
import { countHelpers, helpersReadFirst, writeHelpersReadFirst } from "~/site/read-first.server";

// The Site tab: the family's own words, the service, privacy and Karen Mode,
// each section a plain form that saves its own settings (no JavaScript
// needed), checked by the same schema as PATCH /api/admin/settings.

const SAVE_FAILED = { title: "Not Saved", description: "The settings could not be saved." };

export const headers = loaderCacheControl;

/** Every time zone this server knows, for the time zone list (the current one first if it is not among them). */
function timeZoneNames(current: string): string[] {
  const names = Intl.supportedValuesOf("timeZone");
  return names.includes(current) ? names : [current, ...names];
}

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireFamily(request);
  const settings = getSiteSettings();
  const saved = new URL(request.url).searchParams.get("saved");
  const savedLanguage = saved?.startsWith(`${TRANSLATIONS_SECTION}-`) ? saved.slice(TRANSLATIONS_SECTION.length + 1) : null;
  return json(
    {
      settings,
      translations: getTranslations(),
      savedTranslations: isLanguage(savedLanguage) ? savedLanguage : null,
      saved: isSettingsSection(saved) ? saved : null,
      /** PUBLIC_URL, set on the server: it wins over the public address set here. */
      serverAddress: config.PUBLIC_URL ?? null,
      hasPasscode: getVisitorPasscode() !== null,
      timeZones: timeZoneNames(settings.timeZone),
      familyAdmins: await loadFamilyAdmins(request, admin),
      readFirst: { on: helpersReadFirst(), helpers: countHelpers(), saved: saved === READ_FIRST_SECTION },
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

type Reply = { section: SettingsSection; result: SubmissionResult<string[]>; failed: true };

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireFamily(request);
  const form = await readFormData(request);
  const section = form.get("section");
  if (section === READ_FIRST_SECTION) return saveReadFirst(form, admin);
  if (section === TRANSLATIONS_SECTION) return saveTranslations(form, admin);
  if (!isSettingsSection(section)) return redirectWithToast("/admin/site", { ...SAVE_FAILED, type: "destructive" });
  const submission = parseWithZod(form, { schema: sectionSchema(section) });
  if (submission.status !== "success") return json<Reply>({ section, result: submission.reply(), failed: true }, { status: 400 });
  try {
    const update = await updateSiteSettings(sectionChange(section, submission.value), admin, withServiceNews);
    if (!update.ok)
      return json<Reply>({ section, result: submission.reply({ fieldErrors: update.errors }), failed: true }, { status: 400 });
  } catch (error) {
    const refusal = asRefusal(error);
    if (!refusal) throw error;
    return json<Reply>(
      { section, result: submission.reply({ formErrors: [refusal.message] }), failed: true },
      { status: refusal.status, headers: refusal.headers },
    );
  }
  // The answer goes where the eye is: the saved section, which says so itself (the toast is at the top).
  return redirectWithToast(`/admin/site?saved=${section}#${section}`, SETTINGS_SAVED);
}

/** "Let helpers read first": a checkbox, so nothing to refuse; saved by the family admin `by`. */
function saveReadFirst(form: FormData, by: AdminActor) {
  const submission = parseWithZod(form, { schema: ReadFirstFormSchema });
  const on = submission.status === "success" && submission.value.helpersReadFirst === true;
  by.commit((tx) => writeHelpersReadFirst(tx, on, by.username));
  const description = !on
    ? "New memories, photos and videos come to you again as they arrive."
    : countHelpers() > 0
      ? "New memories, photos and videos now go to your helpers first."
      : "New memories, photos and videos will go to your helpers first once you add one.";
  return redirectWithToast(`/admin/site?saved=${READ_FIRST_SECTION}#${READ_FIRST_SECTION}`, { title: SETTINGS_SAVED.title, description });
}

/** The short list at the top of the tab: on a phone the page is long, and each part is a tap away. */
const PAGE_INDEX: { anchor: string; title: string }[] = [
  ...(Object.keys(SECTIONS) as SettingsSection[]).flatMap((section) => {
    const entry = { anchor: section, title: SECTIONS[section].title };
    if (section === "memorial") return [entry, { anchor: HERO_PHOTO_SECTION, title: "Hero photo" }];
    if (section === "karenMode") return [entry, { anchor: KAREN_SONG_SECTION, title: "Karen Mode song" }];
    return [entry];
  }),
  { anchor: READ_FIRST_SECTION, title: "Helpers" },
  { anchor: FAMILY_ADMINS_ANCHOR, title: "Family admins" },
];

function SettingsForm({ section }: { section: SettingsSection }) {
  const { settings, hasPasscode, timeZones, saved, serverAddress } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const reply = answer && "section" in answer && answer.section === section ? answer : undefined;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("section") === section;
  const id = `site-${section}`;
  const defaultValue = Object.fromEntries(
    SETTINGS_SECTIONS[section].map((name) => [name, name in settings ? settings[name as SettingField] : ""]),
  ) as Record<string, string>;
  const { form, fields, control } = useZodForm(id, sectionSchema(section), { lastResult: reply?.result, defaultValue });
  useEffect(() => {
    if (reply?.failed)
      showToast({
        ...SAVE_FAILED,
        description: formLevelError(reply.result) ?? "Please check the messages in the form.",
        type: "destructive",
      });
  }, [reply]);
  const { title, intro, properName } = SECTIONS[section];
  // A refused save comes back anchored to its section, where the summary is; a save's confirmation is never shown beside an answer.
  const savedHere = saved === section && !answer && !saving;
  return (
    <section id={section} aria-labelledby={`${id}-title`}>
      <Form method="post" action={`/admin/site#${section}`} {...getFormProps(form)} className={s.form}>
        <h2 id={`${id}-title`} className={s.sectionTitle}>
          {title}
        </h2>
        {savedHere ? (
          <p role="status" className={s.savedNote}>
            <strong>{SETTINGS_SAVED.title}.</strong> {SETTINGS_SAVED.description}
          </p>
        ) : null}
        {intro ? <p className={s.storageNote}>{intro}</p> : null}
        <ErrorSummary
          title={SAVE_FAILED.title}
          formErrors={form.errors}
          fieldErrors={SETTINGS_SECTIONS[section].flatMap((name) => {
            const errors = (fields as Record<string, { errors?: string[] }>)[name]?.errors;
            const spec = FIELDS[name];
            const target =
              spec.type === "radio" || spec.type === "checkboxes" ? `${id}-${name}-${spec.options[0]!.value}` : `${id}-${name}`;
            return errors?.length ? [{ label: spec.label, target, messages: errors }] : [];
          })}
        />
        <input type="hidden" name="section" value={section} />
        {SETTINGS_SECTIONS[section].map((name) => {
          const spec = FIELDS[name];
          const field = (fields as Record<string, { errors?: string[]; initialValue?: unknown }>)[name];
          const errorId = `${id}-${name}-error`;
          if (spec.type === "radio") {
            return (
              <RadioGroupField
                key={name}
                legend={spec.label}
                name={name}
                form={id}
                defaultValue={typeof field?.initialValue === "string" ? field.initialValue : undefined}
                errors={field?.errors}
                errorId={errorId}
                options={spec.options}
              />
            );
          }
          if (spec.type === "checkboxes") {
            const chosen = Array.isArray(field?.initialValue) ? (field.initialValue as string[]) : settings.languages;
            return (
              <CheckboxGroupField
                key={name}
                legend={spec.label}
                hint={spec.hint}
                name={name}
                form={id}
                checked={chosen}
                errors={field?.errors}
                errorId={errorId}
                options={spec.options}
              />
            );
          }
          if (spec.type === "timeZone") {
            const { props, errors } = control(name as never, "text");
            const { type: _type, ...selectProps } = props;
            return (
              <SelectField
                key={name}
                label={spec.label}
                hint={spec.hint}
                errors={errors}
                errorId={errorId}
                selectProps={selectProps}
                options={timeZones.map((zone) => ({ value: zone, label: zone.replace(/_/g, " ") }))}
              />
            );
          }
          if (name === "visitorPasscode") {
            const { props, errors } = control(name as never, "text");
            const hint = hasPasscode
              ? "A passcode is set. Type a new one to change it (people who already typed the old one will need the new one), or leave this empty to keep it."
              : "Needed for a private site: a word or phrase you give to family and friends. Capitals and spaces at either end do not matter.";
            return (
              <Field
                key={name}
                label={spec.label}
                hint={hint}
                errors={errors}
                errorId={errorId}
                inputProps={{ ...props, autoComplete: "off" }}
              />
            );
          }
          // A web address is typed as text (a bare "giving.example.org" is fine: the check adds https://).
          const { props, errors } = control(name as never, spec.type === "url" ? "text" : spec.type);
          const hint =
            name === "publicUrl" && serverAddress
              ? `The server names the address itself (PUBLIC_URL): ${serverAddress} is used, whatever is written here.`
              : spec.hint;
          if (spec.type === "url") Object.assign(props, { inputMode: "url", autoCapitalize: "none", spellCheck: false });
          return spec.type === "textarea" ? (
            <TextareaField key={name} label={spec.label} hint={hint} errors={errors} errorId={errorId} textareaProps={props} />
          ) : (
            <Field key={name} label={spec.label} hint={hint} errors={errors} errorId={errorId} inputProps={props} />
          );
        })}
        <button type="submit" className={ui.button.primary} disabled={saving}>
          {saving ? "Saving..." : `Save ${properName ? title : title.toLowerCase()}`}
        </button>
      </Form>
    </section>
  );
}

/** For each of the site's languages other than the main one, a form of the family's texts in it. */
function TranslationForms() {
  const { settings, translations, savedTranslations } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return settings.languages
    .filter((language) => language !== settings.mainLanguage)
    .map((language) => (
      <TranslationsForm
        key={`${language}:${JSON.stringify(translations[language] ?? {})}`}
        language={language}
        mainLanguage={settings.mainLanguage}
        main={settings}
        translations={translations[language] ?? {}}
        saved={savedTranslations === language}
        reply={answer && "language" in answer && answer.language === language ? answer : undefined}
      />
    ));
}

export default function SiteTab() {
  const { familyAdmins, settings, readFirst } = useLoaderData<typeof loader>();
  return (
    <>
      <p className={s.storageNote}>
        Changes show to visitors on their next page. <a href="/">View the site</a>
      </p>
      <nav aria-label="Settings on this page" className={s.pageIndex}>
        <ul className={s.pageIndexList}>
          {PAGE_INDEX.map(({ anchor, title }) => (
            <li key={anchor}>
              <a href={`#${anchor}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {(Object.keys(SECTIONS) as SettingsSection[]).map((section) => (
        <Fragment key={section}>
          {/* Keyed by the stored values: once saved, the fields show them as kept (a bare address with its https://). */}
          <SettingsForm
            key={JSON.stringify(SETTINGS_SECTIONS[section].map((name) => (name in settings ? settings[name as SettingField] : "")))}
            section={section}
          />
          {/* The photo and the song are files, with forms of their own (each posts to its own route). */}
          {section === "memorial" ? <HeroPhotoForm /> : section === "karenMode" ? <KarenSongForm /> : null}
          {section === "languages" ? <TranslationForms /> : null}
        </Fragment>
      ))}
      <ReadFirstForm {...readFirst} />
      <FamilyAdmins {...familyAdmins} />
    </>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Site settings", description: "The family's settings for the memorial.", path: "/admin/site" });
