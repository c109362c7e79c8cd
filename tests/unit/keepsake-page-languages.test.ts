// The keepsake's offline page in the family's main language: its own words
// and <html lang dir>; English as before.
import { describe, expect, it } from "vitest";
import type { Language } from "~/i18n/languages";
import { keepsakePage, type KeepsakePage } from "~/keepsakes/keepsake-page.server";

const page = (language?: Language): KeepsakePage => ({
  language,
  personName: "Ana María",
  siteTitle: "In Loving Memory",
  heroSubtitle: "",
  service: { title: "Misa", dateText: "31 de agosto de 2025", over: true, venueName: "Iglesia", venueAddress: "Calle 1", note: "" },
  welcome: ["Bienvenidos."],
  savedOn: "1 de septiembre de 2025",
  counts: { memories: 1, poems: 0, photos: 0, videos: 0, voices: 0 },
  memories: [[{ name: "Lucía", message: "Siempre.", date: "31 de agosto de 2025", canDisplay: false }]],
  poems: [],
  voices: [],
  media: [],
  files: [],
  life: null,
});

const html = (language?: Language) => [...keepsakePage(page(language))].join("");

describe("the keepsake's offline page", () => {
  it("is in Spanish when Spanish is the main language", () => {
    const text = html("es");
    expect(text).toContain('<html lang="es" dir="ltr">');
    expect(text).toContain("<title>En memoria de Ana María</title>");
    expect(text).toContain('<nav aria-label="En esta página">');
    expect(text).toContain("Recuerdos (1)");
    expect(text).toContain("La ceremonia se celebró el 31 de agosto de 2025.");
    expect(text).toContain("Recuerdos del libro de condolencias");
    expect(text).toContain(" · compartido solo con la familia");
    expect(text).toContain("No se publicaron mensajes de voz.");
    expect(text).toContain(
      "Guardado del sitio web del memorial el 1 de septiembre de 2025: 1 recuerdo, 0 poemas, 0 fotos, 0 videos y 0 mensajes de voz.",
    );
    expect(text).not.toMatch(/In loving memory|Memories from|The service was held|Saved from/);
  });

  it("reads right to left in Arabic", () => {
    const text = html("ar");
    expect(text).toContain('<html lang="ar" dir="rtl">');
    expect(text).toContain("ذكريات من سجل التعازي");
  });

  it("is the English page as before when no language or English is given", () => {
    for (const text of [html(), html("en")]) {
      expect(text).toContain('<html lang="en">');
      expect(text).toContain("<title>In loving memory of Ana María</title>");
      expect(text).toContain("Memories (1)");
      expect(text).toContain("The service was held on 31 de agosto de 2025.");
      expect(text).toContain(" · shared with the family only");
      expect(text).toContain(
        "Saved from the memorial website on 1 de septiembre de 2025: 1 memory, 0 poems, 0 photos, 0 videos and 0 voice memories.",
      );
    }
  });
});
