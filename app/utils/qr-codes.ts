// Client-safe: the site's QR codes, each the address of one page, served as
// SVG at /qr/<name>.svg (app/routes/qr.$file.ts) and printed on the admin's
// Print page (app/routes/admin.print.tsx). Each page's call is in the
// words every other link to it uses (docs/decisions/027-action-names.md);
// a card in another language says it in that language (catalog `cards`).

export const QR_CODES = {
  guestbook: { path: "/guestbook", words: "Scan to sign the guest book", label: "The guest book" },
  share: { path: "/share", words: "Scan to share photos & videos", label: "The share page" },
  home: { path: "/", words: "Scan to visit the memorial", label: "The home page" },
} as const;

export type QrCodeName = keyof typeof QR_CODES;

export const isQrCodeName = (name: string): name is QrCodeName => Object.hasOwn(QR_CODES, name);

/**
 * The address a code opens: the page on `origin`, with `?lang=xx` when the
 * card is one of several languages' (the site opens in the card's language;
 * `lang` is LANGUAGE_PARAM of app/i18n/languages.ts).
 */
export const qrCodeAddress = (origin: string, name: QrCodeName, language?: string) =>
  `${origin}${QR_CODES[name].path}${language ? `?lang=${language}` : ""}`;

/** Where the SVG of a QR code is served (`?lang=xx`: the code of that language's address). */
export const qrCodeSrc = (name: QrCodeName, language?: string) => `/qr/${name}.svg${language ? `?lang=${language}` : ""}`;
