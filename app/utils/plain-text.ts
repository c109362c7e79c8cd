/**
 * Characters that are not text: the C0 controls (NUL to US, CR and LF among
 * them), DEL, the C1 controls and the Unicode line and paragraph separators.
 * Calendar, mail and log readers take some of them for the end of a line, so
 * text holding one could add lines of its own to what the site writes.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const HIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** The same, but for LF: the one line break multi-line text keeps (CRLF is made LF first). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const HIDDEN_CHARACTER_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
