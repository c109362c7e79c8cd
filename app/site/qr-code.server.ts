/**
 * Quartile (25% of the code can be lost and still read): a printed card
 * survives a crease, a smudge or a coffee ring, while a long address still
 * makes modules large enough for an old phone's camera at arm's length
 * (M is the least the spec allows; H would make them smaller again).
 */
const QR_ERROR_CORRECTION = "Q";

/**
 * An address this long would not fit a card's code at a scannable size; the
 * site's own addresses are far shorter, so only a made-up Host header gets
 * here (answered 400 by the route, never a 500).
 */
export const MAX_QR_TEXT = 500;

/**
 * `text` as a square SVG QR code: black modules on white with the standard
 * 4-module quiet zone, 480 units wide so a design program places it at a
 * sensible size (it scales without loss).
 */
export async function qrCodeSvg(text: string): Promise<string> {
  if (text.length > MAX_QR_TEXT) throw new RangeError(`A QR code holds at most ${MAX_QR_TEXT} characters here`);
  // qrcode is loaded at the first QR code, not at every start.
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(text, {
    type: "svg",
    errorCorrectionLevel: QR_ERROR_CORRECTION,
    margin: 4,
    width: 480,
    color: { dark: "#000000", light: "#ffffff" },
  });
}
