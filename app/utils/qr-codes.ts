// Client-safe: the site's QR codes, each the address of one page, served as
// SVG at /qr/<name>.svg (app/routes/qr.$file.ts) and printed on the admin's
// Print page (app/routes/admin.print.tsx). Each page's call is in the
// words every other link to it uses (docs/decisions/027-action-names.md).

export const QR_CODES = {
  guestbook: { path: "/guestbook", words: "Scan to sign the guest book", label: "The guest book" },
  share: { path: "/share", words: "Scan to share photos & videos", label: "The share page" },
  home: { path: "/", words: "Scan to visit the memorial", label: "The home page" },
} as const;

export type QrCodeName = keyof typeof QR_CODES;

export const isQrCodeName = (name: string): name is QrCodeName => Object.hasOwn(QR_CODES, name);

/** Where the SVG of a QR code is served. */
export const qrCodeSrc = (name: QrCodeName) => `/qr/${name}.svg`;
