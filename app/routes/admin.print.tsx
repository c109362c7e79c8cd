import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Fragment } from "react";
import { Form, useLoaderData } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import * as admin from "~/components/admin/admin.css";
import { RadioGroupField } from "~/components/admin/form-fields";
import * as ui from "~/styles/ui.css";
import { AddressWarning } from "~/components/admin/AddressWarning";
import { getSiteView, publicAddressCheck } from "~/site/settings.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { QR_CODES, qrCodeAddress, qrCodeSrc, type QrCodeName } from "~/utils/qr-codes";
import { translate } from "~/i18n/i18n.server";
import { LANGUAGE_NAMES, LANGUAGE_TAGS, textDirection, type Language } from "~/i18n/languages";
import * as s from "./admin.print.css";

/** Which four cards make the sheet (`?cards=`); "mixed" when not given or unknown. */
const SHEETS = {
  mixed: { label: "Two of each", cards: ["guestbook", "share", "guestbook", "share"] },
  guestbook: { label: `Four “${QR_CODES.guestbook.words}”`, cards: ["guestbook", "guestbook", "guestbook", "guestbook"] },
  share: { label: `Four “${QR_CODES.share.words}”`, cards: ["share", "share", "share", "share"] },
} as const satisfies Record<string, { label: string; cards: readonly QrCodeName[] }>;
type SheetName = keyof typeof SHEETS;
const isSheetName = (value: string | null): value is SheetName => value !== null && Object.hasOwn(SHEETS, value);

const FORM_ID = "print-cards";

/** An address as printed under its code: without "https://", which phones add by themselves. */
const printedAddress = (address: string) => address.replace(/^https:\/\//, "");

/**
 * One language's cards: the family's words and the service's day in it, the
 * calls in it, and codes whose addresses open the site in it. With one
 * language the cards carry no `lang` and the addresses no `?lang=`, as
 * before; with several, every card does (the main language's too, so each
 * card opens the site in the language it is written in).
 */
function cardSet(origin: string, language: Language, several: boolean, now: number) {
  const view = getSiteView(now, language);
  const t = translate(language);
  const lang = several ? language : undefined;
  const codes = Object.fromEntries(
    (Object.keys(QR_CODES) as QrCodeName[]).map((name) => {
      const address = printedAddress(qrCodeAddress(origin, name, lang));
      return [name, { address, words: t(`cards.scan.${name}`), alt: t("cards.qrAlt", { address }), src: qrCodeSrc(name, lang) }];
    }),
  ) as Record<QrCodeName, { address: string; words: string; alt: string; src: string }>;
  return {
    language,
    lang: several ? { lang: LANGUAGE_TAGS[language], dir: textDirection(language) } : undefined,
    name: LANGUAGE_NAMES[language],
    heroTitle: view.heroTitle,
    personName: view.personName,
    dayText: view.service.dayText,
    codes,
    cardLabel: (index: number, name: QrCodeName) => t("cards.card", { number: index + 1, words: codes[name].words }),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamily(request);
  const asked = new URL(request.url).searchParams.get("cards");
  const { address: origin, problem } = publicAddressCheck(request);
  const sheet = isSheetName(asked) ? asked : ("mixed" as SheetName);
  const now = Date.now();
  const { languages, mainLanguage } = getSiteView(now);
  // The main language's cards first, then the others in the family's order.
  const chosen = [mainLanguage, ...languages.filter((language) => language !== mainLanguage)];
  const several = chosen.length > 1;
  return json(
    {
      addressProblem: problem,
      origin,
      sheet,
      sets: chosen.map((language) => {
        const { cardLabel, ...set } = cardSet(origin, language, several, now);
        return { ...set, labels: SHEETS[sheet].cards.map((name, index) => cardLabel(index, name)) };
      }),
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export default function PrintTab() {
  const { sheet, sets, addressProblem, origin } = useLoaderData<typeof loader>();
  // The codes' address is in the image's URL too, so a browser never shows a code it kept for an older address.
  const qrSrc = (src: string) => `${src}${src.includes("?") ? "&" : "?"}for=${encodeURIComponent(new URL(origin).host)}`;
  const several = sets.length > 1;
  return (
    <>
      {/* Rules of this page alone, written by admin.print.css.ts from the site's class names. */}
      <style dangerouslySetInnerHTML={{ __html: s.paperOnly }} />
      <h2 className={admin.sectionTitle}>Printed cards</h2>
      {addressProblem ? <AddressWarning address={origin} problem={addressProblem} /> : null}
      <p className={s.intro}>
        Four cards to a sheet for the service: guests scan a card&apos;s code with their phone&apos;s camera to sign the guest book or add
        their photos. The sheet fits A4 and US Letter paper; cut along the dashed lines.
      </p>
      <Form method="get" id={FORM_ID} key={sheet}>
        <RadioGroupField
          legend="Cards on the sheet"
          name="cards"
          form={FORM_ID}
          defaultValue={sheet}
          errors={undefined}
          errorId={`${FORM_ID}-error`}
          options={Object.entries(SHEETS).map(([value, { label }]) => ({ value, label }))}
        />
        <div className={s.controls}>
          <button type="submit" className={ui.button.secondary}>
            Show these cards
          </button>
          <button type="button" className={`${ui.button.primary} ${s.printButton}`} onClick={() => window.print()}>
            Print
          </button>
          <p className={s.printHint}>
            <span className={s.keysHint}>
              To print the sheet, use your browser&apos;s Print command (Ctrl+P, or ⌘P on a Mac): only the cards are printed.
            </span>
            <span className={s.touchHint}>
              To print the sheet from a phone or tablet, choose Print in your browser&apos;s menu (on an iPhone or iPad, tap the Share
              button, then Print): only the cards are printed.
            </span>
          </p>
        </div>
      </Form>

      {sets.map((set) => (
        <Fragment key={set.language}>
          {several ? (
            <h3 className={s.sheetTitle} lang={set.lang?.lang}>
              {set.name}
            </h3>
          ) : null}
          <div className={s.sheet} aria-label={several ? `Cards to print: ${set.name}` : "Cards to print"} role="group">
            {SHEETS[sheet].cards.map((name, index) => (
              <article key={`${name}-${index}`} className={s.card} aria-label={set.labels[index]} {...set.lang}>
                <p className={s.kicker}>{set.heroTitle}</p>
                <p className={s.name}>{set.personName}</p>
                <p className={s.date}>{set.dayText}</p>
                <img className={s.qr} src={qrSrc(set.codes[name].src)} alt={set.codes[name].alt} width={480} height={480} />
                <p className={s.words}>{set.codes[name].words}</p>
                <p className={s.address} dir={several ? "ltr" : undefined}>
                  {set.codes[name].address}
                </p>
              </article>
            ))}
          </div>
        </Fragment>
      ))}

      <h3>The codes for your own designs</h3>
      <p>SVG files, which print sharply at any size:</p>
      <ul className={s.downloads}>
        {sets.flatMap((set) =>
          (Object.keys(QR_CODES) as QrCodeName[]).map((name) => (
            <li key={`${set.language}-${name}`}>
              <a href={qrSrc(set.codes[name].src)} download={several ? `qr-${name}-${set.language}.svg` : `qr-${name}.svg`}>
                {several ? `${QR_CODES[name].label}, ${set.name}` : QR_CODES[name].label}
              </a>{" "}
              <span className={ui.muted}>({set.codes[name].address})</span>
            </li>
          )),
        )}
      </ul>
    </>
  );
}
