// A real SMTP server on a loopback port (smtp-server), for tests that send
// e-mail: every message it accepts is parsed back with mailparser. It can be
// taken down and brought back on the same port, and can hold a message
// (not answer its DATA) until the test lets it through.
import net from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
  /** A header as it was sent (unfolded), or undefined. */
  header(name: string): string | undefined;
  attachments: ParsedMail["attachments"];
  /** Every http(s) link in the plain-text part. */
  links: string[];
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /**
   * Takes the SMTP server away until `up`. The port stays held, so no other
   * test's server can take it meanwhile: every connection is reset at once.
   */
  down(): Promise<void>;
  up(): Promise<void>;
  /** From now on a message's DATA is answered only when `release` is called (or the client gives up). */
  hold(): void;
  /** Answers the held messages and stops holding. */
  release(): void;
  /** Resolves once `count` messages are being held. */
  waitForHeld(count: number, timeoutMs?: number): Promise<void>;
  /** Addresses refused with a 550 (no such user). */
  refused: Set<string>;
  /** Resolves once `count` messages have been accepted in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let holding = false;
  let held: (() => void)[] = [];
  let server: SMTPServer | undefined;
  // While down, this holds the port and resets every connection.
  let holder: net.Server | undefined;
  const refused = new Set<string>();

  const make = () =>
    new SMTPServer({
      // Plain SMTP on loopback, no login: what a local relay offers.
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      closeTimeout: 500,
      onRcptTo(address, _session, callback) {
        if (!refused.has(address.address)) return callback();
        callback(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", async () => {
          const accept = async () => {
            const parsed = await simpleParser(Buffer.concat(chunks), { keepCidLinks: true });
            const text = parsed.text ?? "";
            received.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              subject: parsed.subject ?? "",
              text,
              html: typeof parsed.html === "string" ? parsed.html : "",
              messageId: parsed.messageId ?? "",
              headers: parsed.headers,
              header: (name) => {
                const line = parsed.headerLines.find((header) => header.key === name.toLowerCase())?.line;
                return line
                  ?.slice(line.indexOf(":") + 1)
                  .replace(/\r?\n\s+/g, " ")
                  .trim();
              },
              attachments: parsed.attachments,
              links: [...text.matchAll(/https?:\/\/[^\s>)]+/g)].map((match) => match[0]),
            });
            callback();
            for (const wake of waiters.splice(0)) wake();
          };
          if (holding) {
            held.push(() => void accept());
            for (const wake of waiters.splice(0)) wake();
          } else await accept();
        });
      },
    });

  const listen = (target: net.Server | SMTPServer) =>
    new Promise<void>((resolve, reject) => {
      target.once("error", reject);
      target.listen(port, "127.0.0.1", () => resolve());
    });
  const release = (closing: net.Server | undefined) =>
    new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
  const up = async () => {
    if (server) return;
    await release(holder);
    holder = undefined;
    server = make();
    await listen(server);
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  const down = async () => {
    if (!server) return;
    await stop();
    holder = net.createServer((socket) => socket.resetAndDestroy());
    await listen(holder);
  };
  await up();
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    refused,
    down,
    up,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const accept of held.splice(0)) accept();
    },
    waitForHeld(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} held messages, got ${held.length}`)), timeoutMs);
        const check = () => {
          if (held.length >= count) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    waitFor(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} messages, got ${received.length}`)), timeoutMs);
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: async () => {
      held = [];
      await stop();
      await release(holder);
      holder = undefined;
    },
  };
}
