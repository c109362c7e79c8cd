import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { requireFamily } from "~/admins/session.server";
import * as admin from "~/components/admin/admin.css";
import { RadioGroupField } from "~/components/admin/form-fields";
import * as ui from "~/styles/ui.css";
import { AddressWarning } from "~/components/admin/AddressWarning";
import { publicAddressCheck } from "~/site/settings.server";
import { PRIVATE_NO_STORE } from "~/platform/http.server";
import { QR_CODES, qrCodeSrc, type QrCodeName } from "~/utils/qr-codes";
import { useSite } from "~/site/site-view";
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

export async function loader({ request }: LoaderFunctionArgs) {
  await requireFamily(request);
  const asked = new URL(request.url).searchParams.get("cards");
  const { address: origin, problem } = publicAddressCheck(request);
  return json(
    {
      addressProblem: problem,
      origin,
      sheet: isSheetName(asked) ? asked : ("mixed" as SheetName),
      addresses: {
        guestbook: printedAddress(`${origin}${QR_CODES.guestbook.path}`),
        share: printedAddress(`${origin}${QR_CODES.share.path}`),
        home: printedAddress(`${origin}${QR_CODES.home.path}`),
      } satisfies Record<QrCodeName, string>,
    },
    { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export default function PrintTab() {
  const { sheet, addresses, addressProblem, origin } = useLoaderData<typeof loader>();
  // The codes' address is in the image's URL too, so a browser never shows a code it kept for an older address.
  const qrSrc = (name: QrCodeName) => `${qrCodeSrc(name)}?for=${encodeURIComponent(new URL(origin).host)}`;
  const site = useSite();
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

      <div className={s.sheet} aria-label="Cards to print" role="group">
        {SHEETS[sheet].cards.map((name, index) => (
          <article key={`${name}-${index}`} className={s.card} aria-label={`Card ${index + 1}: ${QR_CODES[name].words}`}>
            <p className={s.kicker}>{site.heroTitle}</p>
            <p className={s.name}>{site.personName}</p>
            <p className={s.date}>{site.service.dayText}</p>
            <img className={s.qr} src={qrSrc(name)} alt={`QR code for ${addresses[name]}`} width={480} height={480} />
            <p className={s.words}>{QR_CODES[name].words}</p>
            <p className={s.address}>{addresses[name]}</p>
          </article>
        ))}
      </div>

      <h3>The codes for your own designs</h3>
      <p>SVG files, which print sharply at any size:</p>
      <ul className={s.downloads}>
        {(Object.keys(QR_CODES) as QrCodeName[]).map((name) => (
          <li key={name}>
            <a href={qrSrc(name)} download={`qr-${name}.svg`}>
              {QR_CODES[name].label}
            </a>{" "}
            <span className={ui.muted}>({addresses[name]})</span>
          </li>
        ))}
      </ul>
    </>
  );
}
