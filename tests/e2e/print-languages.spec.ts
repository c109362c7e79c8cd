import { qrCodeSvg } from "~/site/qr-code.server";
import { hydrated } from "./support/admin";
import { expectNoAxeViolations } from "./support/axe";
import { changeSiteSettings, chooseLanguages, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The printed cards when the family chose several languages: a sheet for
// each, its words in its language, its codes opening the site in it.

test.afterEach(() => resetSiteSettings());

const PERSON = "Margaret Ellen Hughes";

test(
  "with English, Spanish and Arabic chosen, each language has its sheet, and the Spanish card opens the Spanish site",
  { tag: "@no-js" },
  async ({ page, login, browser }) => {
    await changeSiteSettings({ personName: PERSON, serviceStartsAt: "2099-06-06T11:00", serviceEndsAt: "2099-06-06T13:30" });
    await chooseLanguages(["en", "es", "ar"]);
    await login(page, "/admin/print");
    await hydrated(page);
    const origin = new URL(page.url());
    const printedOrigin = `${origin.protocol === "https:" ? "" : "http://"}${origin.host}`;

    // English first, as the site's main language, with its own ?lang=en.
    const english = page.getByRole("group", { name: "Cards to print: English" });
    await expect(english.getByRole("article")).toHaveText([
      /Scan to sign the guest book/,
      /Scan to share photos & videos/,
      /Scan to sign the guest book/,
      /Scan to share photos & videos/,
    ]);
    await expect(english.getByRole("article").first()).toContainText(`${printedOrigin}/guestbook?lang=en`);

    const spanish = page.getByRole("group", { name: "Cards to print: Español" });
    const cards = spanish.getByRole("article");
    await expect(cards).toHaveCount(4);
    await expect(cards.first()).toHaveAttribute("lang", "es");
    await expect(cards.first()).toHaveAttribute("dir", "ltr");
    await expect(cards.first()).toContainText("Escanee para firmar el libro de condolencias");
    await expect(cards.nth(1)).toContainText("Escanee para compartir fotos y vídeos");
    await expect(cards.first()).toContainText(PERSON);
    const address = `${printedOrigin}/guestbook?lang=es`;
    await expect(cards.first().locator("p").last()).toHaveText(address);
    const code = cards.first().getByRole("img", { name: `Código QR de ${address}` });
    await expect(code).toHaveAttribute("src", `/qr/guestbook.svg?lang=es&for=${encodeURIComponent(origin.host)}`);

    // The code holds the printed address, and that address opens the site in Spanish.
    const full = `${origin.origin}/guestbook?lang=es`;
    const svg = await page.request.get("/qr/guestbook.svg?lang=es");
    expect(svg.status()).toBe(200);
    expect(await svg.text()).toBe(await qrCodeSvg(full));
    expect((await page.request.get("/qr/guestbook.svg?lang=fr")).status()).toBe(404);
    const guest = await browser.newContext({ locale: "en-US" });
    const phone = await guest.newPage();
    await phone.goto(full);
    await expect(phone.locator("html")).toHaveAttribute("lang", "es");
    await guest.close();

    // Arabic: right to left, its address still read left to right.
    const arabic = page.getByRole("group", { name: "Cards to print: العربية" });
    await expect(arabic.getByRole("article").first()).toHaveAttribute("dir", "rtl");
    await expect(arabic.getByRole("article").first()).toHaveAttribute("lang", "ar");
    await expect(arabic.getByRole("article").first()).toContainText("امسح الرمز للكتابة في سجل التعازي");
    await expect(arabic.getByRole("article").first().locator("p").last()).toHaveText(`${printedOrigin}/guestbook?lang=ar`);
    const loaded = () =>
      page
        .getByRole("article")
        .getByRole("img")
        .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth));
    await expect.poll(loaded).toEqual(Array(12).fill(480));
    await expectNoAxeViolations(page);

    // On paper, a sheet a page: each 188 × 256 mm, one under the other.
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("heading", { name: "Español" })).toBeHidden();
    const MM = 96 / 25.4;
    for (const sheet of [english, spanish, arabic]) {
      const box = (await sheet.boundingBox())!;
      expect([Math.round(box.width / MM), Math.round(box.height / MM)]).toEqual([188, 256]);
    }
    expect(await spanish.evaluate((sheet) => getComputedStyle(sheet).breakBefore)).toBe("page");
  },
);

test("with one language the cards carry no language of their own", { tag: "@no-js" }, async ({ page, login }) => {
  await login(page, "/admin/print");
  const cards = page.getByRole("group", { name: "Cards to print" }).getByRole("article");
  await expect(cards).toHaveCount(4);
  await expect(cards.first()).not.toHaveAttribute("lang", /./);
  await expect(cards.first().getByRole("img")).toHaveAttribute("src", /^\/qr\/guestbook\.svg\?for=/);
  await expect(page.getByRole("heading", { name: "English" })).toHaveCount(0);
});
