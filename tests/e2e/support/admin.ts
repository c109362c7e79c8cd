import { expect, test, type Page } from "@playwright/test";
import { ADMIN } from "./e2e-site";

export { ADMIN } from "./e2e-site";

/** With JavaScript on, waits until React is in charge of the page (a click before then is a plain form post). */
export const hydrated = async (page: Page) => {
  if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
};

/**
 * Logs in through the login page `path` leads to, and waits for the Admin
 * Panel: for the tests of logging in itself (the `login` fixture starts a
 * session without the form for the rest).
 */
export async function logInThroughForm(page: Page, path = "/admin", credentials = ADMIN) {
  await page.goto(path);
  await hydrated(page);
  await page.getByLabel("Username").fill(credentials.username);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Admin Panel" })).toBeVisible();
}
