import { createHash } from "node:crypto";
import { expectNoAxeViolations } from "./support/axe";
import { expect, test } from "./support/fixtures";

test("an unknown address shows the not-found page with status 404", async ({ page }) => {
  const response = await page.goto("/this-page-does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("404 Page Not Found");
  await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
  // The spec's sentence is there, as a note for whoever keeps the site (its order is checked below).
  await expect(
    page.getByRole("complementary", { name: "A note for the site's keeper" }).getByText("Did you forget to add the page to the router?"),
  ).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Footer" })).toBeVisible();
  // A kind word and a way on, for someone who followed an old link.
  await expect(page.getByText("We couldn't find that page.")).toBeVisible();
  const ways = page.getByRole("navigation", { name: "Where to go from here" });
  await expect(ways.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
  await expect(ways.getByRole("link", { name: "Guest Book" })).toHaveAttribute("href", "/guestbook");
  await expect(ways.getByRole("link", { name: "Gallery" })).toHaveAttribute("href", "/gallery");
  await expectNoAxeViolations(page);
});

for (const width of [320, 414]) {
  test(`at ${width} px the not-found page opens with its heading, a kind word and the ways onward; the router question comes last, for the site's keeper`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 740 });
    const response = await page.goto("/an-old-link-from-the-obituary");
    expect(response?.status()).toBe(404);
    const lines = (await page.locator("main").innerText())
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    // What a grieving visitor reads first: where they are, a kind word, and where to go.
    expect(lines.slice(0, 5)).toEqual([
      "404 Page Not Found",
      "We couldn't find that page. The link may be old, or the address may have a small typo. Everything shared is still here:",
      "Go to the home page",
      "Guest Book",
      "Gallery",
    ]);
    // The spec's sentence last, addressed to whoever looks after the site, not to the visitor.
    expect(lines.at(-1)).toBe(
      "For whoever looks after this site, if one of its own links led here: Did you forget to add the page to the router?",
    );
    const note = page.getByRole("complementary", { name: "A note for the site's keeper" });
    await expect(note).toContainText("Did you forget to add the page to the router?");
    const ways = page.getByRole("navigation", { name: "Where to go from here" });
    const below = await note.evaluate((aside, top) => aside.getBoundingClientRect().top >= top, (await ways.boundingBox())!.y);
    expect(below).toBe(true);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test("a photo that is no longer there gets the kind not-found page, without the question for the site's keeper", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const response = await page.goto("/gallery/999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Where to go from here" }).getByRole("link", { name: "Gallery" })).toBeVisible();
  // The page for it exists: "Did you forget to add the page to the router?" would be wrong here.
  await expect(page.getByText("Did you forget to add the page to the router?")).toHaveCount(0);
});

test("a nested unknown address is a 404 too", async ({ request }) => {
  const response = await request.get("/some/deep/path");
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("Did you forget to add the page to the router?");
});

test("an unknown API address answers 404 in JSON", async ({ request }) => {
  const response = await request.get("/api/no-such-thing");
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual({ errors: { path: ["There is nothing at this address in the API"] } });
});

test("the health check answers when the database does", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.text()).toBe("ok");
});

test("every page carries the security headers, and allows only its own inline scripts", async ({ request }) => {
  for (const path of ["/", "/nowhere"]) {
    const response = await request.get(path);
    const headers = response.headers();
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();
    const html = await response.text();
    // A JSON-LD data block is never run, so the policy does not govern it (the home page's schema.org Person).
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g)];
    expect(inlineScripts.length).toBeGreaterThan(0);
    // A page for one visitor names this response's nonce; a page from the
    // render cache, the same for everyone, names each inline script's hash.
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    for (const [tag, text] of inlineScripts) {
      if (nonce) expect(tag).toContain(`nonce="${nonce}"`);
      else expect(csp).toContain(`'sha256-${createHash("sha256").update(text!).digest("base64")}'`);
    }
  }
});

test("a state-changing request from another site is refused before any work", async ({ request, baseURL }) => {
  const foreign: Record<string, string>[] = [{ Origin: "https://evil.example" }, { Referer: "https://evil.example/form" }];
  for (const headers of foreign) {
    const api = await request.post("/api/poems", { headers, data: {} });
    expect(api.status()).toBe(403);
    const page = await request.post("/poems", { headers, form: { a: "b" } });
    expect(page.status()).toBe(403);
  }
  const sameSite = await request.post("/this-page-does-not-exist", { headers: { Origin: baseURL! } });
  expect(sameSite.status()).not.toBe(403);
});

test("pages load nothing from other hosts", async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(baseURL!) && !r.url().startsWith("data:")) foreign.push(r.url());
  });
  for (const path of ["/", "/poems", "/nowhere"]) await page.goto(path);
  expect(foreign).toEqual([]);
});
