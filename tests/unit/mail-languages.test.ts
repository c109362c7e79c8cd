// E-mail to visitors in the language they followed, wrote or shared in
// (the language stored with the follower, memory or upload), sent to a real
// SMTP server and read back: the subject, both parts, the footer with its
// stop link, the dates, the Content-Language header and the HTML part's
// lang and dir. English stays word for word as it was; the family's own
// alerts stay English.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:9";
  process.env.MAIL_FROM = "In Memory of Jo <memorial@memorial.test>";
  process.env.PUBLIC_URL = "http://memorial.test";
});

import { followers, mailOutbox, mailSuppressions, memories, uploads } from "../../db/schema";
import type { Language } from "~/i18n/languages";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import { resetSubmissionLimits } from "~/platform/submission-limit.server";
import { smtpTransport } from "~/mail/transport.server";
import { MailSender } from "~/mail/sender.server";
import { MemoryApiSchema } from "~/guestbook/memory.schema";
import { submitMemory, updateMemory } from "~/guestbook/memory.server";
import { FollowSchema } from "~/remembrance/follow.schema";
import { confirmFollow, requestFollow } from "~/remembrance/followers.server";
import { queueDueFollowerMail, SERVICE_NEWS_GATHER_MS, withServiceNews } from "~/remembrance/follower-news.server";
import { REMEMBRANCE_DEFAULTS } from "~/remembrance/remembrance.schema";
import { writeRemembrance } from "~/remembrance/remembrance.server";
import { updateSiteSettings } from "~/site/settings.server";
import { instantOf } from "~/site/service-time.server";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../support/smtp-server";

const keeper = operator("keeper");
const ZONE = "America/Los_Angeles";
const at = (local: string) => instantOf(local, ZONE).getTime();
const source = { clientIp: "203.0.113.9" };
let smtp: TestSmtpServer;
let clock = 0;

async function sendAll() {
  const sender = new MailSender({ transport: smtpTransport(smtp.url), now: () => clock });
  for (let round = 0; round < 20; round++) if ((await sender.runOnce()) === 0) break;
}

const settle = async (queued: () => unknown) => {
  smtp.received.length = 0;
  queued();
  await sendAll();
  return [...smtp.received];
};

const tokenOf = (mail: ReceivedMail, prefix: string) => {
  const link = mail.links.find((href) => new URL(href).pathname.startsWith(prefix));
  return link ? new URL(link).pathname.slice(prefix.length) : undefined;
};

/** Someone follows in `language` (the form keeps the page's language with the follower) and opens the link. */
async function follow(name: string, email: string, topics: string[], language: Language, confirm = true) {
  const [mail] = await settle(() => requestFollow({ ...FollowSchema.parse({ name, email, topics }), language }, source, clock));
  expect(mail?.to).toEqual([email]);
  if (confirm) expect(confirmFollow(tokenOf(mail!, "/follow/")!, clock)).toMatchObject({ name });
  return mail!;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  for (const table of [mailOutbox, followers, mailSuppressions, memories, uploads]) db.delete(table).run();
  resetSubmissionLimits();
  smtp.received.length = 0;
  clock = at("2026-12-01T10:00");
  const saved = await updateSiteSettings(
    {
      personName: "Josephine Marsh",
      timeZone: ZONE,
      birthDate: "1942-03-14",
      deathDate: "2026-01-09",
      serviceStartsAt: "2026-12-12T14:00",
      serviceEndsAt: "2026-12-12T16:00",
    },
    keeper,
  );
  expect(saved.ok).toBe(true);
  keeper.commit((tx) => writeRemembrance(tx, REMEMBRANCE_DEFAULTS, "keeper"));
});

describe("the follow confirmation", () => {
  it("is in Spanish for someone who followed in Spanish", async () => {
    const mail = await follow("Ana López", "ana@example.com", ["service", "new"], "es", false);
    expect(mail.subject).toBe("Confirme, por favor: correos del memorial de Josephine Marsh");
    expect(mail.header("content-language")).toBe("es");
    expect(mail.text).toContain("Estimado/a Ana López:");
    expect(mail.text).toContain("Nuevos recuerdos, fotos y videos (como máximo un correo por semana)");
    expect(mail.text).toContain("porque alguien dio esta dirección en el memorial para recibir sus noticias.");
    expect(mail.text).toMatch(/Dejar de recibir estos correos: http:\/\/memorial\.test\/unsubscribe\//);
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain("Sí, manténganme informado/a");
    expect(mail.html).toContain(">Dejar de recibir estos correos</a>");
    expect(mail.text).not.toMatch(/Please confirm|Stop these e-mails|Dear /);
  });

  it("reads right to left for someone who followed in Arabic", async () => {
    const mail = await follow("سارة", "sara@example.com", ["reminders"], "ar", false);
    expect(mail.subject).toBe("يُرجى التأكيد: رسائل من موقع تأبين Josephine Marsh");
    expect(mail.header("content-language")).toBe("ar");
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toContain("padding-right:24px");
    expect(mail.html).not.toContain("padding-left");
    expect(mail.text).toContain("إيقاف هذه الرسائل");
  });

  it("is word for word as before in English", async () => {
    const mail = await follow("Ann Lee", "ann@example.com", ["service", "new"], "en", false);
    expect(mail.subject).toBe("Please confirm: e-mail from the memorial of Josephine Marsh");
    expect(mail.header("content-language")).toBe("en");
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).not.toContain("dir=");
    const unsubscribe = mail.links.find((href) => href.includes("/unsubscribe/"))!;
    const confirm = mail.links.find((href) => href.includes("/follow/"))!;
    expect(mail.text).toBe(
      [
        "Dear Ann Lee,",
        "You asked to hear from the memorial of Josephine Marsh about:",
        "- Changes to the service, and a note after it\n- New memories, photos and videos (a weekly e-mail at most)",
        "To start, open this link. Until you do, nothing more will be sent to this address.",
        `Yes, keep me posted: ${confirm}`,
        "If you did not ask for this, do nothing: you will not hear from the memorial again.",
        "--",
        "You get this e-mail from In Loving Memory because someone gave this address on the memorial to receive its news.",
        `Stop these e-mails: ${unsubscribe}`,
      ].join("\n\n") + "\n",
    );
  });
});

describe("the published notice", () => {
  it("is in the language the memory was written in", async () => {
    const { id } = submitMemory(
      MemoryApiSchema.parse({ name: "Ana López", email: "ana@example.com", message: "La recuerdo en el lago.", notifyWhenPublished: true }),
    );
    db.update(memories).set({ language: "es" }).where(eq(memories.id, id)).run();
    const [mail] = await settle(() => updateMemory(id, { status: "APPROVED" }, keeper, clock));
    expect(mail?.subject).toBe("Su recuerdo de Josephine Marsh ya está en el memorial");
    expect(mail?.header("content-language")).toBe("es");
    expect(mail?.text).toContain("La familia ha leído su recuerdo y lo ha añadido al libro de visitas.");
    expect(mail?.text).toContain("porque pidió que se le avisara cuando la familia añadiera su recuerdo.");
    expect(mail?.html).toContain(">Ver el libro de visitas</a>");
  });
});

describe("followers' news", () => {
  it("tells of a change to the service with its day and hours in each follower's language", async () => {
    await follow("Ana López", "ana@example.com", ["service"], "es");
    await follow("Ann Lee", "ann@example.com", ["service"], "en");
    smtp.received.length = 0;
    await updateSiteSettings({ serviceStartsAt: "2026-12-13T14:00", serviceEndsAt: "2026-12-13T16:00" }, keeper, (tx, write) =>
      withServiceNews(tx, write, clock),
    );
    clock += SERVICE_NEWS_GATHER_MS + 60_000;
    await sendAll();
    const to = (email: string) => smtp.received.find((mail) => mail.to.includes(email))!;
    expect(to("ann@example.com").text).toContain("Sunday, December 13th, 2026 · 2:00 pm to 4:00 pm");
    const spanish = to("ana@example.com");
    expect(spanish.header("content-language")).toBe("es");
    expect(spanish.text).toContain("domingo, 13 de diciembre de 2026");
    expect(spanish.text).not.toContain("December");
  });

  it("writes the weekly digest in the follower's language", async () => {
    await follow("Ana López", "ana@example.com", ["new"], "es");
    await follow("Ann Lee", "ann@example.com", ["new"], "en");
    clock += 60_000;
    for (const name of ["Cara Diaz", "Dan Roe"]) {
      const { id } = submitMemory(MemoryApiSchema.parse({ name, email: "w@example.com", message: `${name} remembers the lake.` }));
      updateMemory(id, { status: "APPROVED" }, keeper, clock);
    }
    clock = at("2026-12-03T09:00");
    const mails = await settle(() => queueDueFollowerMail(clock));
    const spanish = mails.find((mail) => mail.to[0] === "ana@example.com");
    const english = mails.find((mail) => mail.to[0] === "ann@example.com");
    expect(spanish?.subject).toBe("Josephine Marsh: 2 recuerdos nuevos");
    expect(spanish?.text).toContain("Esta semana en el memorial de Josephine Marsh: 2 recuerdos nuevos.");
    expect(spanish?.text).toContain("Cara Diaz escribió:");
    expect(spanish?.text).toContain("porque pidió un correo semanal con los nuevos recuerdos, fotos y videos.");
    expect(english?.subject).toBe("Josephine Marsh: 2 new memories");
    expect(english?.text).toContain("This week on the memorial of Josephine Marsh: 2 new memories.");
  });

  it("frames the yearly reminder, and writes its date, in the follower's language; the family's words as they are", async () => {
    await follow("Ana López", "ana@example.com", ["reminders"], "es");
    await follow("سارة", "sara@example.com", ["reminders"], "ar");
    keeper.commit((tx) =>
      writeRemembrance(
        tx,
        { anniversary: true, daysBefore: 7, onTheDay: true, sendAt: "08:30", words: "Light a candle with us." },
        "keeper",
      ),
    );
    clock = at("2027-01-02T08:30");
    const mails = await settle(() => queueDueFollowerMail(clock));
    const spanish = mails.find((mail) => mail.to[0] === "ana@example.com");
    expect(spanish?.subject).toBe("Recordando a Josephine Marsh: el aniversario es el sábado, 9 de enero de 2027");
    expect(spanish?.text).toContain(
      "El sábado, 9 de enero de 2027, dentro de 7 días, es el 1.º aniversario del fallecimiento de Josephine Marsh.",
    );
    expect(spanish?.text).toContain("> Light a candle with us.");
    expect(spanish?.html).toContain(">Visitar el memorial</a>");
    const arabic = mails.find((mail) => mail.to[0] === "sara@example.com");
    expect(arabic?.header("content-language")).toBe("ar");
    expect(arabic?.html).toContain('dir="rtl"');
    expect(arabic?.text).toContain("الذكرى الـ1 لوفاة Josephine Marsh");
    expect(arabic?.text).toContain("يناير");
  });
});
