// @ts-check
// The linter checks what STYLE.md asks and a tool can see: hooks used as
// React needs, accessible JSX, and the house's import directions
// (route → model → media / storage / db, never upwards), with no import cycles.
import path from "node:path";
import js from "@eslint/js";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** @param {string} message @param {string[]} group */
const forbid = (message, ...group) => ({ group, message });

const serverModules = forbid(
  "Components run in the browser: take types from models/*.schema.ts, never a .server module.",
  "**/*.server",
  "**/*.server.*",
);
const models = forbid(
  "app/media, app/mail and db know storage, signing, processing and sending only: the models call them, not the other way round.",
  "~/models/*",
  "**/models/*",
);

const nodeServer = forbid(
  "server/ runs the app, not the other way round: what the server and the app share is the app's (app/site-hooks.server.ts).",
  "**/server/*",
  "**/server/**",
);
const aboveUtils = forbid(
  "app/utils holds small helpers that know no rules: no models (their schemas' types are fine), auth or routes. A route's helper lives beside it in app/routes/*.server.ts.",
  "~/models/*.server",
  "**/models/*.server",
  "~/auth/*",
  "**/auth/*",
  "~/routes/*",
  "**/routes/*",
);

// A request's changes are its admin's (requireAdmin's actor, whose session is checked again as the
// change is committed); `operator` writes with no session at all, for scripts and tests only.
const noOperator = {
  name: "~/auth/actor.server",
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
    rules: { "no-restricted-imports": ["error", { patterns: [nodeServer] }] },
  },
  {
    files: ["app/components/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverModules, nodeServer] }] },
  },
  {
    files: ["app/media/**", "app/mail/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [models, nodeServer] }] },
  },
  {
    files: ["db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [models, forbid("db/ stands below the app: it imports nothing from app/.", "~/*", "**/app/*")] },
      ],
    },
  },
  {
    files: ["app/routes/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [noOperator],
          patterns: [
            forbid("Routes call a model function; the models own the database.", "~/db.server", "**/db/*", "**/db/schema"),
            nodeServer,
          ],
        },
      ],
    },
  },
  {
    files: ["app/utils/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [aboveUtils, nodeServer] }] },
  },
);
