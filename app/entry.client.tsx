import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { canRunClientApp } from "~/utils/browser-support";

// An older browser keeps the server-rendered page, which works on its own
// (forms, links, menus), instead of hydrating into something that fails
// halfway (docs/decisions/002).
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
