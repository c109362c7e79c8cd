import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import sharp from "sharp";
import { expectNoAxeViolations } from "./support/axe";
import { addUpload, chooseLanguages, latestUpload, removeAllUploads, resetSiteSettings } from "./support/data";
import { expect, test } from "./support/fixtures";

// The media pages in the visitor's language: the share page (its plain form,
// its refusals and toasts, the upload dialog), the gallery, the slideshow and
// the voice form, in Spanish and, right to left, in Arabic on a phone.

let work: string;
let photo: string;

test.beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "memorial-languages-media-"));
  photo = path.join(work, "jardin.jpg");
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#88aa55" } })
    .jpeg()
    .toFile(photo);
});
test.afterAll(async () => {
  resetSiteSettings();
  await fs.rm(work, { recursive: true, force: true });
});
test.beforeEach(async () => {
  removeAllUploads();
  await chooseLanguages(["en", "es", "ar"]);
});

const hydrated = (page: Page) => expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");

/** Nothing wider than the screen: no sideways scrolling. */
async function expectNoOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

async function fillWho(page: Page) {
  await page.getByLabel("Nombre*").fill("Prima Rut");
  await page.getByLabel("Correo electrónico*").fill("rut@example.com");
}

test.describe("the share page in Spanish without JavaScript", { tag: "@no-js" }, () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the plain form is what a browser without JavaScript gets");

  test("speaks Spanish at 320 px, refuses a file in Spanish, and keeps the sender's language", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    await page.goto("/share?lang=es");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByRole("heading", { level: 1, name: "Compartir fotos y videos" })).toBeVisible();
    await expect(page.getByText("Formatos admitidos: JPG, PNG, HEIC, WebP, GIF, MP4, MOV, AVI", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Deje un recuerdo de voz" })).toBeVisible();
    await expectNoOverflow(page);
    await expectNoAxeViolations(page);

    const notes = path.join(work, "notas.jpg");
    await fs.writeFile(notes, "Estas son mis notas, no una foto.");
    await fillWho(page);
    await page.getByLabel("Fotos y videos").setInputFiles(notes);
    await page.getByRole("button", { name: "Subir archivos" }).click();
    await expect(page.getByRole("alert")).toContainText("Error al subir");
    await expect(
      page.getByText(
        "«notas.jpg» no es una foto ni un video que podamos aceptar. Formatos admitidos: JPG, PNG, HEIC, WebP, GIF, MP4, MOV, AVI.",
      ),
    ).toBeVisible();
    await expectNoOverflow(page);
    expect(latestUpload()).toBeUndefined();

    await page.getByLabel("Fotos y videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Subir archivos" }).click();
    await expect(page).toHaveURL(/\/share$/);
    await expect(page.getByText("Subida completada")).toBeVisible();
    await expect(page.getByText("Su archivo se ha subido correctamente y está pendiente de revisión.")).toBeVisible();
    expect(latestUpload()).toMatchObject({ originalName: "jardin.jpg", language: "es" });
  });

  test("a name of only spaces is refused in Spanish", async ({ page }) => {
    await page.goto("/share?lang=es");
    await page.getByLabel("Nombre*").fill("   ");
    await page.getByLabel("Correo electrónico*").fill("rut@example.com");
    await page.getByLabel("Fotos y videos").setInputFiles(photo);
    await page.getByRole("button", { name: "Subir archivos" }).click();
    const alert = page.getByRole("alert");
    await expect(alert.getByText("Faltan datos", { exact: true })).toBeVisible();
    await expect(alert.getByText("Indique su nombre y su correo electrónico antes de subir archivos.")).toBeVisible();
    await expect(page.getByText("El nombre es obligatorio")).toBeVisible();
  });
});

test.describe("the share page's upload dialog in Spanish", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the upload dialog needs JavaScript");

  test("the dialog speaks Spanish at 320 px and the upload keeps the sender's language", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    await page.goto("/share?lang=es");
    await hydrated(page);
    await expectNoOverflow(page);
    await page.getByRole("button", { name: "Elegir archivos" }).click();
    await expect(page.getByTestId("toast")).toContainText("Faltan datos");
    await fillWho(page);
    await page.getByRole("button", { name: "Elegir archivos" }).click();
    const dialog = page.locator(".uppy-Dashboard--modal");
    await expect(dialog.getByRole("dialog")).toBeVisible();
    await expect(dialog).toContainText("Fotos y videos, hasta 10 archivos, 1 GB cada uno");
    await dialog.locator("input.uppy-Dashboard-input").first().setInputFiles(photo);
    await dialog.getByRole("button", { name: /^Subir 1 archivo/ }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Subida completada" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("region", { name: "Subidos recientemente" }).getByRole("listitem")).toHaveText(["jardin.jpg"]);
    expect(latestUpload()).toMatchObject({ originalName: "jardin.jpg", language: "es" });
  });
});

test.describe("the gallery, the slideshow and the voice form in Spanish", { tag: "@no-js" }, () => {
  test("the gallery names each photo in Spanish", async ({ page }) => {
    await addUpload({ status: "APPROVED", sender: "Ana" });
    await page.goto("/gallery?lang=es");
    await expect(page.getByRole("heading", { level: 1, name: "Galería de recuerdos" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Foto compartida por Ana (se abre en una pestaña nueva)" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Fotos", exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/gallery?type=VIDEO");
    await expect(page.getByText("Todavía no se han compartido videos.")).toBeVisible();
  });

  test("the slideshow speaks Spanish", async ({ page }) => {
    await addUpload({ status: "APPROVED", sender: "Ana" });
    await page.goto("/slideshow?lang=es&qr=1");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByText("Compartido por Ana")).toBeVisible();
    await expect(page.getByRole("img", { name: "Foto compartida por Ana" })).toBeVisible();
    await expect(page.getByText("Compartir fotos y videos")).toBeVisible();
    await expect(page.getByRole("link", { name: "Siguiente" }).or(page.getByRole("button", { name: "Siguiente" }))).toHaveCount(1);
  });

  test("the voice page speaks Spanish", async ({ page }) => {
    await page.goto("/voices?lang=es");
    await expect(page.getByRole("heading", { level: 1, name: "Deje un recuerdo de voz" })).toBeVisible();
    await expect(page.getByLabel("Correo electrónico (opcional)")).toBeVisible();
    await expect(page.getByRole("button", { name: "Enviar recuerdo de voz" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Escuchar las voces en el libro de visitas" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe("the media pages in Arabic on a phone", { tag: "@no-js" }, () => {
  for (const [address, heading] of [
    ["/share", "مشاركة الصور ومقاطع الفيديو"],
    ["/gallery", "معرض الذكريات"],
    ["/voices", "اتركوا ذكرى بصوتكم"],
  ] as const) {
    test(`${address} reads right to left at 320 px without sideways scrolling`, async ({ page }) => {
      await addUpload({ status: "APPROVED", sender: "Ana" });
      await page.setViewportSize({ width: 320, height: 740 });
      await page.goto(`${address}?lang=ar`);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expectNoOverflow(page);
      await expectNoAxeViolations(page);
    });
  }

  test("the slideshow reads right to left at 320 px", async ({ page }) => {
    await addUpload({ status: "APPROVED", sender: "Ana" });
    await page.setViewportSize({ width: 320, height: 740 });
    await page.goto("/slideshow?lang=ar&qr=1");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByText("شاركه Ana")).toBeVisible();
    await expectNoOverflow(page);
  });
});
