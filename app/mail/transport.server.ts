import type { Transporter } from "nodemailer";

// Sending one e-mail over SMTP with nodemailer. No rules here: the outbox
// (app/mail/outbox.server.ts) decides what to send, when, and what a
// failure means.

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The same on every attempt, so a message that went out twice reads as one. */
  messageId: string;
  headers: Record<string, string>;
  /** Pictures the HTML shows by `cid:`. */
  attachments: { cid: string; filename: string; content: Buffer; contentType: string }[];
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * An SMTP server at `url` (smtp:// or smtps://). Each message opens its own
 * connection: a memorial sends a few a day, and nothing is held open between
 * them. The timeouts keep a server that stops answering from holding the
 * sender for long.
 */
export function smtpTransport(url: string): MailTransport {
  // nodemailer is loaded with the first message, not at every start.
  let transporter: Transporter | null = null;
  const open = async () =>
    (transporter ??= (await import("nodemailer")).default.createTransport({
      url,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    }));
  return {
    async send(mail) {
      await (
        await open()
      ).sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        headers: mail.headers,
        attachments: mail.attachments.map((attachment) => ({ ...attachment, contentDisposition: "inline" as const })),
        // Plain ASCII line lengths, as old clients read them.
        textEncoding: "quoted-printable",
      });
    },
    close: () => transporter?.close(),
  };
}

/**
 * Whether an SMTP failure is about this message and will not change by
 * trying again (the server refused the recipient or the message: a 5xx
 * answer to them), rather than about the server (down, slow, refusing the
 * login), which may be over soon.
 */
export function isPermanentFailure(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (code === "EENVELOPE" || code === "EMESSAGE") && typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
}
