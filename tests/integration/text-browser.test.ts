// The site in a text browser: Debian's lynx reads the home page, and signs the
// guest book through the real form by replaying keystrokes from a file
// (`lynx -cmd_script`), the way a visitor with a screen reader on a terminal,
// or on a very old machine, would. No Chromium: the production server on this
// test file's database, and the app's own model code (tests/e2e/support/data.ts)
// to seed it and check what was stored.
//
// The site's cookies (the one-time "Memory Submitted" confirmation among them)
// are `Secure` in production, as the live site is only served over HTTPS.
// Chromium treats http://localhost as a secure origin and sends them back;
// lynx does not, so here lynx talks HTTPS to a small TLS-terminating proxy in
// front of the test server, as Fly's proxy sits in front of the live site.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertAdmin } from "~/admins/admin.server";
import { content } from "~/content";
import { translate } from "~/i18n/i18n.server";
import {
  addUpload,
  changeSiteSettings,
  chooseLanguages,
  latestMemory,
  publishLifeStory,
  removeAllUploads,
  removeLifeStory,
  resetSiteSettings,
} from "../e2e/support/data";
import { requireBuild, startSite, type Site } from "../support/site-process";

const ADMIN = { username: "admin", password: "lynx-admin-password" };

const LYNX_TIMEOUT_MS = 30_000;
const CONFIRMATION_TITLE = "Memory Submitted";
const CONFIRMATION_TEXT = "Thank you for sharing your memory. It will be reviewed before being published.";

let work: string;
let certFile: string;
let keyFile: string;
let lynxCfg: string;
let site: Site;
let baseURL: string;

beforeAll(async () => {
  requireBuild();
  work = await mkdtemp(path.join(tmpdir(), "memorial-text-browser-"));
  certFile = path.join(work, "localhost-cert.pem");
  keyFile = path.join(work, "localhost-key.pem");
  lynxCfg = path.join(work, "lynx.cfg");
  // A fresh configuration (not /etc/lynx/lynx.cfg or a ~/.lynxrc) so every
  // run behaves the same: numbered links and form fields (typing "15" then
  // Enter moves to field 15), text fields that must be activated with Enter
  // (so typed digits are never taken as text by accident), cookies accepted
  // without asking, no Referer, and certificate problems refused rather
  // than asked about (a prompt would swallow the next scripted keystrokes).
  await writeFile(
    lynxCfg,
    [
      "DEFAULT_KEYPAD_MODE:LINKS_AND_FIELDS_ARE_NUMBERED",
      "TEXTFIELDS_NEED_ACTIVATION:TRUE",
      "CHARACTER_SET:utf-8",
      "ASSUME_CHARSET:utf-8",
      "SET_COOKIES:TRUE",
      "ACCEPT_ALL_COOKIES:TRUE",
      "PERSISTENT_COOKIES:FALSE",
      "FORCE_COOKIE_PROMPT:YES",
      "FORCE_SSL_PROMPT:NO",
      "NO_REFERER_HEADER:TRUE",
      "",
    ].join("\n"),
  );
  // The admin exists before the server starts (the server would otherwise create it just after it starts listening).
  await upsertAdmin(ADMIN.username, ADMIN.password);
  // The server shares this process's database and storage (tests/support/setup.ts), so the model code seeds what it shows.
  site = await startSite(path.dirname(process.env.DATABASE_PATH!), {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    COMPLETION_WAIT_MS: "120000",
    FLY_APP_NAME: "memorial-lynx",
  });
  baseURL = site.origin;
}, 90_000);

afterAll(async () => {
  await site?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

interface LynxRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs lynx with the test configuration and a clean environment (no proxies, no ~/.lynxrc). */
function lynx(args: string[]): Promise<LynxRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("lynx", [`-cfg=${lynxCfg}`, "-noreferer", "-accept_all_cookies", "-nopause", "-display_charset=utf-8", ...args], {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        TERM: "vt100",
        LANG: "C.UTF-8",
        COLUMNS: "160",
        LINES: "60",
        SSL_CERT_FILE: certFile,
      } as Record<string, string | undefined> as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), LYNX_TIMEOUT_MS);
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === "ENOENT"
          ? new Error("lynx is not installed: apt-get install -y lynx (npm test installs it when run as root)")
          : error,
      );
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** `lynx -dump`: the page as lynx renders it, as plain text. */
async function dump(url: string, extra: string[] = []): Promise<string> {
  const run = await lynx(["-dump", "-width=200", ...extra, url]);
  expect(run, `lynx -dump ${url} failed: ${run.stderr}`).toMatchObject({ code: 0, signal: null });
  return run.stdout;
}

/** What lynx drew on its (pretend) terminal, without the control sequences: for failure messages. */
const screenText = (output: string) =>
  // Terminal control sequences are what this removes.
  // eslint-disable-next-line no-control-regex
  output.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]|[\x0e\x0f\r]/g, " ").replace(/ {2,}/g, " ");

/** Collapses line wrapping and indentation, so text can be matched across lines. */
const flat = (text: string) => text.replace(/\s+/g, " ");

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
]);
const endToEnd = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));

/**
 * An HTTPS front for the test server with a certificate for localhost made
 * for this run (trusted by lynx through SSL_CERT_FILE), forwarding like
 * Fly's proxy: X-Forwarded-Proto https, the browser's Host kept.
 */
async function startTlsProxy(target: URL): Promise<{ origin: string; close: () => Promise<void> }> {
  try {
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ]);
  } catch (error) {
    throw new Error(`Could not make a test certificate with openssl (apt-get install -y openssl): ${String(error)}`);
  }
  const server = https.createServer({ key: await readFile(keyFile), cert: await readFile(certFile) }, (req, res) => {
    const upstream = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...endToEnd(req.headers), "x-forwarded-proto": "https" },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`proxy error: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** lynx keystroke-script lines typing `text` (one `key` line per character, as -cmd_log writes them). */
function typeText(text: string): string[] {
  if (!/^[A-Za-z0-9 .,@/_-]+$/.test(text)) throw new Error(`Only plain characters can be scripted simply: ${text}`);
  return [...text].map((char) => (char === " " ? "key <space>" : `key ${char}`));
}

/** Moves to numbered link or field `n` ("15", Enter). */
const goTo = (n: number) => [...typeText(String(n)), "key ^J"];

/** P)rint, "Save to a local file" (the menu's first entry), and the file name. */
const saveTo = (file: string) => ["key p", "key ^J", "key ^U", ...typeText(file), "key ^J"];

/** The text lynx shows in numbered field `n` (a text field is drawn as its value then underscores). */
function shownIn(page: string, n: number): string {
  const match = new RegExp(`\\[${n}\\]([^\\n]*?)_*[ \\t]*$`, "m").exec(page);
  if (!match) throw new Error(`no field [${n}] in:\n${page}`);
  return match[1]!;
}

/** The number lynx gives the field on the line matching `pattern` (first group). */
function fieldNumber(page: string, pattern: RegExp, what: string): number {
  const match = pattern.exec(page);
  if (!match?.[1]) throw new Error(`lynx shows no ${what} on the guest book page:\n${page}`);
  return Number(match[1]);
}

describe("the site in a text browser (lynx)", () => {
  it("lynx -dump of the home page shows the memorial service details", async () => {
    const page = await dump(`${baseURL}/`, ["-nolist"]);
    const service = page.indexOf("Memorial Service");
    expect(service, `no "Memorial Service" section in:\n${page}`).toBeGreaterThanOrEqual(0);
    const section = flat(page.slice(service));
    for (const detail of [
      content.serviceTitle,
      "Sunday, August 31st, 2025 · 4:00 pm to 8:00 pm",
      content.venueName,
      content.venueAddress,
    ]) {
      expect(section).toContain(flat(detail));
    }
  });

  it("lynx shows the header's links once, not a second time for the phone menu", async () => {
    for (const path of ["/", "/poems"]) {
      const page = await dump(`${baseURL}${path}`, ["-nolist"]);
      for (const label of ["Service Details", "Share Memories"]) {
        expect(page.split(label).length - 1, `"${label}" on ${path}:\n${page}`).toBe(1);
      }
      expect(page, path).not.toMatch(/\bMenu\b/);
    }
  });

  it("lynx shows no audio fallback sentence in the footer, and names each gallery tile", async () => {
    removeAllUploads();
    await addUpload({ status: "APPROVED", name: "picnic-by-the-lake.jpg", sender: "Peter Hall" });
    await addUpload({ status: "APPROVED", type: "VIDEO", name: "birthday-song.mp4", sender: "Ben Ortiz" });
    const home = await dump(`${baseURL}/`, ["-nolist"]);
    expect(home).not.toContain("Your browser does not support the audio element.");
    const gallery = flat(await dump(`${baseURL}/gallery`, ["-nolist"]));
    expect(gallery).toContain("Photo shared by Peter Hall");
    expect(gallery).toMatch(/Video shared by Ben Ortiz, \d+:\d\d/);
    expect(gallery).not.toContain("picnic-by-the-lake");
  });

  it("lynx reads the life story: its headings, its words and the timeline in order, one moment to a line", async () => {
    try {
      publishLifeStory("Margaret grew up above her father's shop.\n\n## Work\n\nShe baked for the whole town.", [
        { date: "1964-06-20", title: "Married Tom in Galway", text: "A wet June day." },
        { date: "1942-03-14", title: "Born in Cork" },
        { date: "1971", title: "Opened the bakery" },
      ]);
      const page = await dump(`${baseURL}/life`, ["-nolist"]);
      expect(page).toContain("Life Story");
      expect(flat(page)).toContain("Margaret grew up above her father's shop.");
      expect(page).toMatch(/Work\s*\n\s*\n?\s*She baked for the whole town\./);
      expect(page).toMatch(
        /1\. March 14, 1942\s*\n[\s\S]*Born in Cork[\s\S]*2\. June 20, 1964[\s\S]*Married Tom in Galway[\s\S]*A wet June day\.[\s\S]*3\. 1971/,
      );
      // The header's link appears once the story is published, and once.
      expect(page.split("Life Story").length - 1).toBeGreaterThanOrEqual(2);
    } finally {
      removeLifeStory();
    }
  });

  it("lynx reads the site in Spanish from a language link, and the header offers each language by its own name", async () => {
    try {
      await chooseLanguages(["en", "es", "ar"]);
      const es = translate("es");
      const english = await dump(`${baseURL}/guestbook`, ["-nolist"]);
      expect(english).toContain("Español");
      expect(english).toContain("العربية");
      const spanish = await dump(`${baseURL}/guestbook?lang=es`, ["-nolist"]);
      for (const words of [es("guestbook.title"), es("guestbook.form.submit"), es("common.nav.home"), es("common.skipLink")])
        expect(spanish).toContain(words);
      expect(spanish).not.toContain("Submit Memory");
      expect(spanish).not.toContain("Skip to content");
    } finally {
      resetSiteSettings();
    }
  });

  it("lynx reads the voice form without an empty summary, and a voice's name apart from its length and line", async () => {
    removeAllUploads();
    await addUpload({ type: "AUDIO", status: "APPROVED", sender: "Uncle Ben", email: null, caption: "For Jo, from the lake" });
    for (const page of ["/guestbook", "/share"]) {
      const words = flat(await dump(`${baseURL}${page}`, ["-nolist"]));
      expect(words, page).toContain("Leave a voice memory");
      // Nothing was sent: nothing to check.
      expect(words, page).not.toContain("Please check:");
    }
    const guestbook = flat(await dump(`${baseURL}/guestbook`, ["-nolist"]));
    expect(guestbook).toMatch(/Uncle Ben · 0:10/);
    expect(guestbook).not.toMatch(/Uncle Ben0:/);
    expect(guestbook).toContain("For Jo, from the lake");
  });

  it("lynx shows links that sit side by side apart, never run together", async () => {
    try {
      // Before the service, its card has three links in a row: the calendar, the map and the RSVP.
      await changeSiteSettings({ serviceStartsAt: "2099-06-06T11:00", serviceEndsAt: "2099-06-06T13:00" });
      // Without lynx's link numbers ("[9]"), as a reader sees the words.
      const words = async (path: string) => flat(await dump(`${baseURL}${path}`, ["-nolist"])).replace(/\[\d+\]/g, "");
      const home = await words("/");
      expect(home).toContain("Share a Memory | Upload Photos");
      expect(home).toContain("Add to calendar | View on Map (opens in a new tab) | Let the family know you're coming");
      expect(home).not.toMatch(/Share a MemoryUpload|calendarView|tab\)Let/);
      expect(await words("/gallery")).toContain("All | Photos | Videos | Share Your Memory");
      // The not-found page's ways onward are a list: one to a line.
      // (lynx -dump exits with an error status on a 404, and still prints the page.)
      const notFound = (await lynx(["-dump", "-nolist", "-width=200", `${baseURL}/an-old-link`])).stdout;
      expect(notFound.replace(/\[\d+\]/g, "")).toMatch(/\* Go to the home page\s*\n\s*\* Guest Book\s*\n\s*\* Gallery/);
    } finally {
      resetSiteSettings();
    }
  });

  it(
    "a visitor signs the guest book through the form in lynx and sees the confirmation; the memory waits for review",
    { timeout: 90_000 },
    async () => {
      const proxy = await startTlsProxy(new URL(baseURL));
      try {
        const url = `${proxy.origin}/guestbook`;
        const suffix = Math.random().toString(36).slice(2, 8);
        const name = `Lynx ${suffix}`;
        const email = `lynx-${suffix}@example.com`;
        const message = `Typed in lynx ${suffix}, we remember the songs.`;

        // Where the fields are: the same numbers lynx shows when browsing.
        const form = await dump(url, ["-number_fields", "-nolist"]);
        const fields = {
          name: fieldNumber(form, /Name \* \[(\d+)\]_/, "Name field"),
          email: fieldNumber(form, /Email \* \[(\d+)\]_/, "Email field"),
          message: fieldNumber(form, /Your Memory \*\s*\n\s*\[(\d+)\]_/, "Your Memory field"),
          submit: fieldNumber(form, /\(\[(\d+)\]BUTTON\) Submit Memory/, "Submit Memory button"),
        };

        const filled = path.join(work, "filled.txt");
        const answered = path.join(work, "answered.txt");
        const script = [
          "# Sign the guest book: go to a field, Enter to start typing, Enter to stop.",
          ...goTo(fields.name),
          "key ^J",
          ...typeText(name),
          "key ^J",
          ...goTo(fields.email),
          "key ^J",
          ...typeText(email),
          "key ^J",
          ...goTo(fields.message),
          "key ^J",
          ...typeText(message),
          // In a text area Enter starts the next line; Tab leaves the area.
          "key <tab>",
          "# The filled-in form, as lynx shows it.",
          ...saveTo(filled),
          ...goTo(fields.submit),
          "key ^J",
          "# The page that came back.",
          ...saveTo(answered),
          "exit",
          "",
        ].join("\n");
        const scriptFile = path.join(work, "sign-guestbook.lynx");
        await writeFile(scriptFile, script);

        const run = await lynx([`-cmd_script=${scriptFile}`, "-number_fields", url]);
        expect(run, `lynx failed: ${run.stderr}`).toMatchObject({ code: 0, signal: null });

        // The spam trap, hidden from people by CSS, is not drawn for a text browser at all.
        expect(form).not.toContain("Leave this field empty");

        // Before sending: what was typed is in the form.
        const before = await readFile(filled, "utf8").catch(() => {
          throw new Error(`lynx did not save the filled-in form; its screen was:\n${screenText(run.stdout)}`);
        });
        expect(shownIn(before, fields.name)).toBe(name);
        // Lynx shows as much of a value as fits the field's width.
        expect(email.startsWith(shownIn(before, fields.email))).toBe(true);
        expect(shownIn(before, fields.email)).toMatch(/^lynx-/);
        expect(shownIn(before, fields.message)).toBe(message);

        // The answer: the confirmation, and an empty form for the next person.
        const after = await readFile(answered, "utf8").catch(() => {
          throw new Error(`lynx did not save the page it got back; its screen was:\n${screenText(run.stdout)}`);
        });
        expect(flat(after)).toContain(CONFIRMATION_TITLE);
        expect(flat(after)).toContain(CONFIRMATION_TEXT);
        expect(shownIn(after, fieldNumber(after, /Name \* \[(\d+)\]/, "Name field"))).toBe("");
        expect(after).not.toContain(message);

        expect(latestMemory()).toMatchObject({
          name,
          email,
          phone: null,
          message,
          canDisplay: true,
          status: "PENDING",
        });
      } finally {
        await proxy.close();
      }
    },
  );

  it(
    "a visitor to a private memorial gives the passcode in lynx, is told when it is wrong, then reads the service details",
    { timeout: 90_000 },
    async () => {
      await changeSiteSettings({ visibility: "private", visitorPasscode: "Blue Heron", personName: "Margaret Hale" });
      const proxy = await startTlsProxy(new URL(baseURL));
      try {
        const url = `${proxy.origin}/`;
        // The home page asked for is the passcode page (lynx is sent to it rather than shown a 401).
        const form = await dump(url, ["-number_fields", "-nolist"]);
        expect(flat(form)).toContain("In Loving Memory of Margaret Hale");
        expect(flat(form)).toContain("Please enter the passcode they gave you to come in.");
        expect(form).not.toContain("Memorial Service");
        const fields = {
          passcode: fieldNumber(form, /Capital letters do not matter\.\s*\n\s*\[(\d+)\]_/, "Passcode field"),
          submit: fieldNumber(form, /\(\[(\d+)\]BUTTON\) Open the memorial/, "Open the memorial button"),
        };

        const refused = path.join(work, "refused.txt");
        const answered = path.join(work, "opened.txt");
        const script = [
          "# A wrong passcode first, then the right one in other capitals.",
          ...goTo(fields.passcode),
          "key ^J",
          ...typeText("grey heron"),
          "key ^J",
          ...goTo(fields.submit),
          "key ^J",
          ...saveTo(refused),
          ...goTo(fields.passcode),
          "key ^J",
          ...typeText("blue HERON"),
          "key ^J",
          ...goTo(fields.submit),
          "key ^J",
          ...saveTo(answered),
          "exit",
          "",
        ].join("\n");
        const scriptFile = path.join(work, "give-passcode.lynx");
        await writeFile(scriptFile, script);
        const run = await lynx([`-cmd_script=${scriptFile}`, "-number_fields", url]);
        expect(run, `lynx failed: ${run.stderr}`).toMatchObject({ code: 0, signal: null });

        const wrong = await readFile(refused, "utf8").catch(() => {
          throw new Error(`lynx did not save the refused form; its screen was:\n${screenText(run.stdout)}`);
        });
        expect(flat(wrong)).toContain("That passcode is not right. Please check it with the family and try again.");
        const opened = await readFile(answered, "utf8").catch(() => {
          throw new Error(`lynx did not save the page it got back; its screen was:\n${screenText(run.stdout)}`);
        });
        const section = flat(opened.slice(opened.indexOf("Memorial Service")));
        expect(section).toContain(flat(content.venueName));
        expect(section).toContain(flat(content.venueAddress));
      } finally {
        await proxy.close();
        resetSiteSettings();
      }
    },
  );

  it(
    "the family logs in with lynx: a wrong password shows the login form again with its message, the right one opens the panel",
    { timeout: 90_000 },
    async () => {
      const proxy = await startTlsProxy(new URL(baseURL));
      try {
        const url = `${proxy.origin}/admin/login`;
        const form = await dump(url, ["-number_fields", "-nolist"]);
        const fields = {
          username: fieldNumber(form, /Username \[(\d+)\]_/, "Username field"),
          password: fieldNumber(form, /Password \[(\d+)\]_/, "Password field"),
          submit: fieldNumber(form, /\(\[(\d+)\]BUTTON\) Login/, "Login button"),
        };
        const refused = path.join(work, "login-refused.txt");
        const answered = path.join(work, "login-answered.txt");
        const logIn = (password: string, saveAs: string) => [
          ...goTo(fields.username),
          "key ^J",
          // A field shown again keeps what was typed: emptied first (Ctrl-U).
          "key ^U",
          ...typeText(ADMIN.username),
          "key ^J",
          ...goTo(fields.password),
          "key ^J",
          "key ^U",
          ...typeText(password),
          "key ^J",
          ...goTo(fields.submit),
          "key ^J",
          ...saveTo(saveAs),
        ];
        const script = [
          "# A wrong password first, then the right one.",
          ...logIn("not-the-password", refused),
          ...logIn(ADMIN.password, answered),
          "exit",
          "",
        ].join("\n");
        const scriptFile = path.join(work, "log-in.lynx");
        await writeFile(scriptFile, script);
        const run = await lynx([`-cmd_script=${scriptFile}`, "-number_fields", url]);
        expect(run, `lynx failed: ${run.stderr}`).toMatchObject({ code: 0, signal: null });

        const wrong = await readFile(refused, "utf8").catch(() => {
          throw new Error(`lynx did not save the refused login; its screen was:\n${screenText(run.stdout)}`);
        });
        expect(flat(wrong)).toContain("Login Failed");
        expect(flat(wrong)).toContain("Invalid username or password.");
        expect(flat(wrong)).toMatch(/Password \[\d+\]_/);
        const panel = await readFile(answered, "utf8").catch(() => {
          throw new Error(`lynx did not save the page it got back; its screen was:\n${screenText(run.stdout)}`);
        });
        expect(flat(panel)).toContain("Admin Panel");
        expect(flat(panel)).toMatch(/Pending Memories \(\d+\)/);
      } finally {
        await proxy.close();
      }
    },
  );
});
