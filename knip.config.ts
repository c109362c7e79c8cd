import type { KnipConfig } from "knip";

// Unused files, exports, types and dependencies (`npm run lint`). Knip's own plugins read the
// entry points from their configs: Remix (remix.config.js, app/root.tsx, app/entry.client.tsx,
// app/entry.server.tsx, app/routes/**), Vitest (the test files and tests/support/setup.ts),
// Playwright (tests/e2e/**), Drizzle (drizzle.config.ts, db/schema.ts), ESLint and Prettier;
// the scripts of package.json name some of scripts/ and bench/.
// Test files are entries, so the helpers in tests/**/support are checked like the app.
// db/migrations holds SQL, which knip does not read.
const config: KnipConfig = {
  entry: [
    // Run by hand, by package.json's scripts or by bench/index.mjs, which starts each bench by its path.
    "scripts/*.mjs",
    "bench/*.mjs",
    // The server: started by npm start and npm run dev (through a shell knip does not follow), the
    // Dockerfile, and scripts/site-process.mjs for the tests.
    "server/index.mjs",
    // Started by the server as a child process to make a memory book (app/keepsakes/book/memory-book.server.ts).
    "server/memory-book-process.mjs",
  ],
  ignoreDependencies: [
    // Tests render with the copy of React Router that @remix-run/react pins, so that its hooks and the
    // test's router share one context; listing them here could install a second copy after a Remix update.
    "react-router-dom",
    "@remix-run/router",
    // Brings Litestream's binary for this platform as its optional dependency, which the server
    // runs (scripts/litestream-start.sh, scripts/restore.mjs): nothing imports the package.
    "@flydotio/litestream",
  ],
  ignoreBinaries: [
    // Debian tools the tests run (.ci/run installs them; the Dockerfile installs those the media
    // processing also runs: ffmpeg, ffprobe, heif-convert).
    "ffmpeg",
    "ffprobe",
    "heif-convert",
    // util-linux (essential in Debian): the media tools get the parent-death signal (app/media/run-tool.server.ts).
    "setpriv",
    "lynx",
    "rsvg-convert",
    "zbarimg",
    // poppler-utils: the memory book's tests read the PDF back.
    "pdftotext",
    "pdftoppm",
    // The full-disk tests mount a small tmpfs (tests/support/small-disk.ts).
    "mount",
    "umount",
    // The read-only replica test makes its folder immutable, which root would otherwise write to.
    "chattr",
    // The pages bench's load generator (bench/wrk.mjs): Debian's wrk, a C client.
    "wrk",
  ],
};

export default config;
