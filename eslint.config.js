// @ts-check
// The linter checks what STYLE.md asks and a tool can see: hooks used as
// React needs, accessible JSX, and the house's import directions
// (route → model → media / storage / db, never upwards).
import js from "@eslint/js";
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
    files: ["app/components/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverModules] }] },
  },
  {
    files: ["app/media/**", "app/mail/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [models] }] },
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
          patterns: [forbid("Routes call a model function; the models own the database.", "~/db.server", "**/db/*", "**/db/schema")],
        },
      ],
    },
  },
  {
    // Route helpers live in app/utils too.
    files: ["app/utils/**"],
    rules: { "no-restricted-imports": ["error", { paths: [noOperator] }] },
  },
);
