import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { canRunClientApp } from "~/utils/browser-support";

// An older browser keeps the server-rendered page, which works on its own
// (forms, links, menus), instead of hydrating into something that fails
// halfway (docs/decisions/002). Safari 12 lacks Intl.PluralRules too; it is
// never hydrated (canRunClientApp), and the page's translator picks plural
// forms without it where it is missing (app/i18n/words.ts), so no polyfill
// is loaded (@formatjs/intl-pluralrules is not installed).
if (canRunClientApp(window)) {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}
