// Rendering a memory router to a string, as the form tests do.
import type { createMemoryRouter } from "react-router-dom";
import { RouterProvider } from "react-router-dom";
import { renderToString } from "react-dom/server";

/** Renders `router` once on the server, then disposes of it. */
export function renderRouterOnce(router: ReturnType<typeof createMemoryRouter>) {
  // RouterProvider's layout effect is meant for the browser; React says so on every server render.
  const warn = console.error;
  console.error = (...args: unknown[]) => void (String(args[0]).includes("useLayoutEffect does nothing on the server") || warn(...args));
  try {
    renderToString(<RouterProvider router={router} />);
  } finally {
    console.error = warn;
    router.dispose();
  }
}
