// @ts-check
// The linter checks what STYLE.md asks and a tool can see: hooks used as
// React needs, accessible JSX, and the house's import directions
// (route → domain → media → platform / db, never upwards; docs/architecture.md),
// with no import cycles between files or between folders (scripts/folder-cycles.mjs).
import path from "node:path";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** A pattern of no-restricted-imports: an import whose path matches `regex` is refused with `message`. @param {string} regex @param {string} message */
const refuse = (regex, message) => ({ regex, message });

// The rooms of app/ (docs/architecture.md). A domain owns the rules of one thing the site does.
const DOMAINS = ["admins", "guestbook", "attendance", "poems", "uploads", "site", "mail", "keepsakes", "candles", "voices", "i18n"];

const nodeServer = refuse(
  "^(\\.\\./)+server/",
  "server/ runs the app, not the other way round: what it takes from the build is in app/server/ (site hooks).",
);
const appServer = refuse(
  "^~/server/|^\\.\\./server/",
  "app/server/ is what server/*.mjs takes from the build (through entry.server.tsx's siteHooks): nothing in the app imports it.",
);
const routesAndViews = refuse(
  "^~/(routes|components|root|entry\\.server|entry\\.client)(/|$)",
  "A domain is called by routes, never the other way round: no routes, components or root in a domain.",
);
const serverModules = refuse(
  "\\.server(\\.[jt]sx?)?$",
  "Components run in the browser: take types from a domain's *.schema.ts, never a .server module.",
);
// no-restricted-imports reads static imports and re-exports only; a dynamic import() is matched by its syntax.
const dynamicServerImport = {
  selector: "ImportExpression[source.value=/\\.server(\\.[jt]sx?)?$/]",
  message: serverModules.message,
};
const onlyPlatform = refuse(
  "^~/(?!platform/|utils/)|^\\.\\./(?!\\.\\./db/)",
  "app/platform is the floor (config, db, HTTP, limits): it imports no domain, only itself, app/utils and db/.",
);
const mediaBelowDomains = refuse(
  "^~/(?!platform/|media/)|^\\.\\./(?!\\.\\./db/)",
  "app/media knows storage and processing only: it imports app/platform, never a domain (the domains call it).",
);
const pureUtils = refuse(
  "^~/(?!utils/)|^\\.\\./|^(?![~.]|zod$)",
  "app/utils holds pure, browser-safe helpers: they import only app/utils and zod. Code with rules lives in its domain.",
);
const routesOwnNoSql = refuse(
  "^~/platform/db\\.server$|(^|/)db/(schema|client)",
  "Routes call a domain function; the domains own the database.",
);
const dbBelowApp = refuse("^~/|(^|/)app/", "db/ stands below the app: it imports nothing from app/.");

// A request's changes are its admin's (requireAdmin's actor, whose session is checked again as the
// change is committed); `operator` writes with no session at all, for scripts and tests only.
const noOperator = {
  name: "~/platform/actor.server",
  importNames: ["operator"],
  message: "A request writes as the admin requireAdmin gives, whose session is checked at the commit: never as operator().",
};

export default tseslint.config(
  {
    ignores: ["build/**", "public/build/**", "node_modules/**", "test-results/**", "playwright-report/**", "tests/.tmp/**", "coverage/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Tests and a few narrow casts of library types need it; the typecheck is strict everywhere else.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    // A module that imports, through others, a module importing it runs before its imports are
    // ready at start-up. Type-only imports are erased and do not count.
    files: ["app/**/*.{ts,tsx}", "server/**/*.mjs", "db/**/*.ts", "scripts/**/*.mjs"],
    plugins: { "import-x": importX },
    settings: {
      // Which files import-x reads to follow imports (only .js by default).
      "import-x/extensions": [".ts", ".tsx", ".mjs", ".js"],
      // import-x's own resolver (unrs-resolver) reads tsconfig.json, so `~/…` resolves to app/.
      "import-x/resolver-next": [
        createNodeResolver({
          extensions: [".ts", ".tsx", ".mjs", ".js", ".json"],
          tsconfig: { configFile: path.join(import.meta.dirname, "tsconfig.json"), references: "auto" },
        }),
      ],
    },
    rules: { "import-x/no-cycle": "error" },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      ...jsxA11y.flatConfigs.recommended.rules,
      // The videos are the family's home films and the music a loop without words: there are no
      // captions to give, and the site cannot make them.
      "jsx-a11y/media-has-caption": "off",
    },
  },
  {
    files: ["app/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [nodeServer, appServer] }] },
  },
  {
    // Only the build's entry hands app/server/ to the Node server, and app/server/ itself.
    files: ["app/server/**", "app/entry.server.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: [nodeServer] }] },
  },
  {
    files: ["app/platform/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [onlyPlatform, nodeServer] }] },
  },
  {
    files: ["app/media/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [mediaBelowDomains, nodeServer] }] },
  },
  {
    files: DOMAINS.map((domain) => `app/${domain}/**`),
    rules: { "no-restricted-imports": ["error", { patterns: [routesAndViews, appServer, nodeServer] }] },
  },
  {
    files: ["app/components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [serverModules, appServer, nodeServer] }],
      "no-restricted-syntax": ["error", dynamicServerImport],
    },
  },
  {
    files: ["app/routes/**"],
    rules: { "no-restricted-imports": ["error", { paths: [noOperator], patterns: [routesOwnNoSql, appServer, nodeServer] }] },
  },
  {
    files: ["app/utils/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [pureUtils] }] },
  },
  {
    files: ["db/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [dbBelowApp] }] },
  },
);
