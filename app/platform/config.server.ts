import { randomBytes } from "node:crypto";
import { z } from "zod";

const optional = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const UNITS: Record<string, number> = { "": 1, B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/**
 * A number of bytes: a whole number, or one with a unit (`2GB`, `256 MB`,
 * `1.5GB`). Units count in 1024s, as the spec counts 1 GB = 1073741824 bytes.
 */
const byteSize = (name: string, fallback: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z
      .string()
      .trim()
      .transform((value, ctx) => {
        const match = /^(\d+(?:\.\d+)?)\s*(|B|KB|MB|GB|TB)$/i.exec(value);
        const bytes = match ? Math.floor(Number(match[1]) * UNITS[match[2]!.toUpperCase()]!) : NaN;
        if (!Number.isSafeInteger(bytes) || bytes < 0) {
          ctx.addIssue({ code: "custom", message: `${name} must be a number of bytes, e.g. 2147483648 or 2GB` });
          return z.NEVER;
        }
        return bytes;
      })
      .optional()
      .transform((bytes) => bytes ?? fallback),
  );

/**
 * The site's public origin (`https://memorial.example.com`), for addresses
 * that leave the site: the printed QR codes and the calendar file. Only an
 * origin: the site is served from the root of its host, so a path, query,
 * fragment or credentials would name another site.
 */
const publicUrl = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z
    .string()
    .trim()
    .transform((value, ctx) => {
      let url: URL | null = null;
      try {
        url = new URL(value);
      } catch {
        // reported below
      }
      const plain =
        url &&
        (url.protocol === "https:" || url.protocol === "http:") &&
        !url.username &&
        !url.password &&
        url.pathname === "/" &&
        !url.search &&
        !url.hash &&
        !value.includes("?") &&
        !value.includes("#");
      if (!url || !plain) {
        ctx.addIssue({
          code: "custom",
          message: "PUBLIC_URL must be the site's address with nothing after the host, e.g. https://memorial.example.com",
        });
        return z.NEVER;
      }
      return url.origin;
    })
    .optional(),
);

/**
 * The SMTP server e-mail goes out through (`smtp://user:pass@host:587` or
 * `smtps://…:465`); unset, the site sends no e-mail.
 */
const smtpUrl = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "smtp:" || url.protocol === "smtps:") && !!url.hostname;
      } catch {
        return false;
      }
    }, "SMTP_URL must be an smtp:// or smtps:// address, e.g. smtps://user:password@smtp.example.com:465")
    .optional(),
);

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce
      .number({ message: "PORT must be a number" })
      .int()
      .min(1, "PORT must be between 1 and 65535")
      .max(65535, "PORT must be between 1 and 65535")
      .default(3000),
    DATABASE_PATH: z.string().trim().min(1).default("./data/memorial.db"),
    STORAGE_DIR: z.string().trim().min(1).default("./data/uploads"),
    BUCKET_NAME: optional,
    AWS_ENDPOINT_URL_S3: optional,
    AWS_REGION: optional,
    AWS_ACCESS_KEY_ID: optional,
    AWS_SECRET_ACCESS_KEY: optional,
    SESSION_SECRET: optional,
    SUBMISSIONS_PER_10_MINUTES: z.coerce
      .number({ message: "SUBMISSIONS_PER_10_MINUTES must be a number" })
      .int()
      .min(1, "SUBMISSIONS_PER_10_MINUTES must be at least 1")
      .default(60),
    // What uploads may take of the volume (docs/media.md): bytes held by
    // uploads not yet published, the free space always left on the disk, and
    // what one network may send in a day.
    PENDING_UPLOAD_BYTES: byteSize("PENDING_UPLOAD_BYTES", 2 * 1024 ** 3),
    MIN_FREE_DISK_BYTES: byteSize("MIN_FREE_DISK_BYTES", 256 * 1024 ** 2),
    UPLOAD_BYTES_PER_DAY: byteSize("UPLOAD_BYTES_PER_DAY", 5 * 1024 ** 3),
    // How long completing an upload waits for its processing (thumbnail, type
    // check) before answering anyway; the tests wait longer, so a busy machine
    // gives them the same answer.
    COMPLETION_WAIT_MS: z.coerce
      .number({ message: "COMPLETION_WAIT_MS must be a number" })
      .int()
      .min(0, "COMPLETION_WAIT_MS must be at least 0")
      .default(1500),
    // How long a change to the service waits before followers are told, so a
    // family saving the date and then the place sends one e-mail, not two.
    SERVICE_NEWS_WAIT_MINUTES: z.coerce
      .number({ message: "SERVICE_NEWS_WAIT_MINUTES must be a number" })
      .int()
      .min(0, "SERVICE_NEWS_WAIT_MINUTES must be at least 0")
      .max(24 * 60, "SERVICE_NEWS_WAIT_MINUTES must be at most 1440")
      .default(15),
    KAREN_MODE_THEME: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z.enum(["classic", "disco"], { message: "KAREN_MODE_THEME must be classic or disco" }).optional(),
    ),
    ADMIN_USERNAME: optional,
    ADMIN_PASSWORD: optional,
    PUBLIC_URL: publicUrl,
    SMTP_URL: smtpUrl,
    // Who e-mail is from: `Memorial <memorial@example.com>` or a bare address.
    MAIL_FROM: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z
        .string()
        .trim()
        .max(320)
        .refine((value) => /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(value), {
          message: "MAIL_FROM must be an address, e.g. Memorial <memorial@example.com>",
        })
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message:
          "SESSION_SECRET is required when NODE_ENV=production (set it to a long random string, e.g. `fly secrets set SESSION_SECRET=$(openssl rand -hex 32)`)",
      });
    }
    if (env.ADMIN_PASSWORD && env.ADMIN_PASSWORD.length < 8) {
      ctx.addIssue({ code: "custom", path: ["ADMIN_PASSWORD"], message: "ADMIN_PASSWORD must be at least 8 characters long" });
    }
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({
        code: "custom",
        path: ["MAIL_FROM"],
        message: "MAIL_FROM is required with SMTP_URL: the address e-mail is sent from",
      });
    }
    if (env.SMTP_URL && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL"],
        message: "PUBLIC_URL is required with SMTP_URL: the links in e-mails need the site's address",
      });
    }
    if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: [env.ADMIN_USERNAME ? "ADMIN_PASSWORD" : "ADMIN_USERNAME"],
        message: "ADMIN_USERNAME and ADMIN_PASSWORD must be set together",
      });
    }
  });

export type Config = z.infer<typeof schema> & { sessionSecrets: string[] };

export class ConfigError extends Error {
  name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "environment"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  let sessionSecrets = (parsed.SESSION_SECRET ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (sessionSecrets.length === 0) {
    // Scripts that only write to the database (npm run admin) sign no cookies: no warning there.
    if (parsed.NODE_ENV !== "test" && !process.env.MEMORIAL_SCRIPT) {
      console.warn("SESSION_SECRET is not set: using a random secret for this process. Admin sessions end when the server restarts.");
    }
    sessionSecrets = [randomBytes(32).toString("hex")];
  }
  return { ...parsed, sessionSecrets };
}

export const config = parseConfig(process.env);
