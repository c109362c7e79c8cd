// A cold start on the Fly box's one shared CPU pays for every module the build
// imports (docs/performance.md, "The Fly box"): the libraries only some
// requests need load at their first use, never when the server starts.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { siteEnv } from "../../scripts/site-process.mjs";
import { requireBuild, ROOT, scratchDir } from "../support/site-process";

const LOADED_AT_FIRST_USE = ["sharp", "pdfkit", "fontkit", "qrcode", "nodemailer", "@aws-sdk/client-s3"];

// Imports the server build as the server does, then lists which of those the CommonJS loader holds.
const PROBE = `
import { createRequire } from "node:module";
await import(${JSON.stringify(path.join(ROOT, "build/index.js"))});
const files = Object.keys(createRequire(import.meta.url).cache);
const names = ${JSON.stringify(LOADED_AT_FIRST_USE)};
console.log(JSON.stringify(names.filter((name) => files.some((file) => file.includes("/node_modules/" + name + "/")))));
`;

describe("starting the server", () => {
  it("does not load the image, PDF, QR code, mail or S3 libraries", async () => {
    requireBuild();
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", PROBE], {
      cwd: ROOT,
      env: siteEnv(scratchDir()),
    });
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual([]);
  }, 60_000);
});
