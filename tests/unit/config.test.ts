import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigError, parseConfig } from "~/platform/config.server";

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected parseConfig to throw a ConfigError");
}

describe("parseConfig", () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    // Keep the "using a random secret" warning out of the test output.
    warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it("uses port 3000 and the ./data folder when nothing is set", () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_PATH).toBe("./data/memorial.db");
    expect(config.STORAGE_DIR).toBe("./data/uploads");
    expect(config.NODE_ENV).toBe("development");
  });

  it("accepts 60 guest book and attendance submissions per network in 10 minutes unless told otherwise", () => {
    expect(parseConfig({}).SUBMISSIONS_PER_10_MINUTES).toBe(60);
    expect(parseConfig({ SUBMISSIONS_PER_10_MINUTES: "200" }).SUBMISSIONS_PER_10_MINUTES).toBe(200);
    expect(() => parseConfig({ SUBMISSIONS_PER_10_MINUTES: "0" })).toThrow("SUBMISSIONS_PER_10_MINUTES");
  });

  it("reads PORT, DATABASE_PATH and STORAGE_DIR from the environment", () => {
    const config = parseConfig({
      NODE_ENV: "test",
      PORT: "8080",
      DATABASE_PATH: "/data/site.db",
      STORAGE_DIR: "/data/files",
    });
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_PATH).toBe("/data/site.db");
    expect(config.STORAGE_DIR).toBe("/data/files");
  });

  it("refuses to start in production without SESSION_SECRET and says so", () => {
    const error = configError({ NODE_ENV: "production" });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.name).toBe("ConfigError");
    expect(error.message).toContain("SESSION_SECRET");
  });

  it("treats a blank SESSION_SECRET in production as missing", () => {
    expect(configError({ NODE_ENV: "production", SESSION_SECRET: "   " }).message).toContain("SESSION_SECRET");
  });

  it("starts in production when SESSION_SECRET is set", () => {
    const config = parseConfig({ NODE_ENV: "production", SESSION_SECRET: "a-long-random-secret" });
    expect(config.NODE_ENV).toBe("production");
    expect(config.sessionSecrets).toEqual(["a-long-random-secret"]);
  });

  it("splits comma-separated session secrets so old ones keep working during rotation", () => {
    const config = parseConfig({ NODE_ENV: "production", SESSION_SECRET: "new-secret, old-secret,,older " });
    expect(config.sessionSecrets).toEqual(["new-secret", "old-secret", "older"]);
  });

  it("makes up a random secret outside production, different on each start", () => {
    const first = parseConfig({ NODE_ENV: "development" });
    const second = parseConfig({ NODE_ENV: "development" });
    expect(first.sessionSecrets).toHaveLength(1);
    expect(first.sessionSecrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(second.sessionSecrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(first.sessionSecrets[0]).not.toBe(second.sessionSecrets[0]);
    expect(warn).toHaveBeenCalled();
  });

  it.each(["abc", "70000", "0", "3.5"])("refuses PORT=%s and names PORT", (port) => {
    const error = configError({ NODE_ENV: "test", PORT: port });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/PORT/);
  });

  it("refuses an admin username without a password and names ADMIN_PASSWORD", () => {
    const error = configError({ NODE_ENV: "test", ADMIN_USERNAME: "family" });
    expect(error.message).toContain("ADMIN_PASSWORD");
  });

  it("refuses an admin password without a username and names ADMIN_USERNAME", () => {
    const error = configError({ NODE_ENV: "test", ADMIN_PASSWORD: "secret" });
    expect(error.message).toContain("ADMIN_USERNAME");
  });

  it("accepts admin credentials given together", () => {
    const config = parseConfig({ NODE_ENV: "test", ADMIN_USERNAME: "family", ADMIN_PASSWORD: "a long secret" });
    expect(config.ADMIN_USERNAME).toBe("family");
    expect(config.ADMIN_PASSWORD).toBe("a long secret");
  });

  it("refuses an admin password shorter than 8 characters", () => {
    expect(configError({ NODE_ENV: "test", ADMIN_USERNAME: "family", ADMIN_PASSWORD: "secret" }).message).toContain(
      "ADMIN_PASSWORD must be at least 8 characters long",
    );
  });

  it("takes Karen Mode's theme from the environment, or leaves it to the content file", () => {
    expect(parseConfig({ NODE_ENV: "test", KAREN_MODE_THEME: "disco" }).KAREN_MODE_THEME).toBe("disco");
    expect(parseConfig({ NODE_ENV: "test" }).KAREN_MODE_THEME).toBeUndefined();
    expect(configError({ NODE_ENV: "test", KAREN_MODE_THEME: "rave" }).message).toContain("KAREN_MODE_THEME must be classic or disco");
  });

  it("reads the storage budget of uploads as bytes, with or without a unit, and names a wrong one", () => {
    const defaults = parseConfig({ NODE_ENV: "test" });
    expect([defaults.PENDING_UPLOAD_BYTES, defaults.MIN_FREE_DISK_BYTES, defaults.UPLOAD_BYTES_PER_DAY]).toEqual([
      2 * 1024 ** 3,
      256 * 1024 ** 2,
      5 * 1024 ** 3,
    ]);
    const set = parseConfig({
      NODE_ENV: "test",
      PENDING_UPLOAD_BYTES: "1.5GB",
      MIN_FREE_DISK_BYTES: "300 mb",
      UPLOAD_BYTES_PER_DAY: "1000000",
    });
    expect([set.PENDING_UPLOAD_BYTES, set.MIN_FREE_DISK_BYTES, set.UPLOAD_BYTES_PER_DAY]).toEqual([
      1.5 * 1024 ** 3,
      300 * 1024 ** 2,
      1_000_000,
    ]);
    expect(configError({ NODE_ENV: "test", PENDING_UPLOAD_BYTES: "lots" }).message).toContain(
      "PENDING_UPLOAD_BYTES must be a number of bytes",
    );
  });

  it("takes the site's public address from PUBLIC_URL as an origin, or leaves it to each request", () => {
    expect(parseConfig({ NODE_ENV: "test" }).PUBLIC_URL).toBeUndefined();
    expect(parseConfig({ NODE_ENV: "test", PUBLIC_URL: "  " }).PUBLIC_URL).toBeUndefined();
    expect(parseConfig({ NODE_ENV: "test", PUBLIC_URL: "https://Memorial.Example.com/" }).PUBLIC_URL).toBe("https://memorial.example.com");
    expect(parseConfig({ NODE_ENV: "test", PUBLIC_URL: "https://memorial.example.com:443" }).PUBLIC_URL).toBe(
      "https://memorial.example.com",
    );
    expect(parseConfig({ NODE_ENV: "test", PUBLIC_URL: "http://192.168.1.20:3000" }).PUBLIC_URL).toBe("http://192.168.1.20:3000");
    for (const wrong of [
      "memorial.example.com",
      "ftp://memorial.example.com",
      "https://memorial.example.com/memorial",
      "https://memorial.example.com/?x=1",
      "https://memorial.example.com/#top",
      "https://family:secret@memorial.example.com",
      "https://",
    ]) {
      expect(configError({ NODE_ENV: "test", PUBLIC_URL: wrong }).message, wrong).toContain(
        "PUBLIC_URL must be the site's address with nothing after the host",
      );
    }
  });

  it("sends no e-mail without SMTP_URL; with it, needs MAIL_FROM and PUBLIC_URL, and names a wrong one", () => {
    const none = parseConfig({ NODE_ENV: "test", MAIL_FROM: "Memorial <m@example.com>" });
    expect(none.SMTP_URL).toBeUndefined();
    const mail = parseConfig({
      NODE_ENV: "test",
      SMTP_URL: " smtps://user:pw@smtp.example.com:465 ",
      MAIL_FROM: "In Memory of Jo <memorial@example.com>",
      PUBLIC_URL: "https://memorial.example.com",
    });
    expect([mail.SMTP_URL, mail.MAIL_FROM]).toEqual(["smtps://user:pw@smtp.example.com:465", "In Memory of Jo <memorial@example.com>"]);
    expect(
      parseConfig({ NODE_ENV: "test", SMTP_URL: "smtp://localhost:2525", MAIL_FROM: "m@example.com", PUBLIC_URL: "http://x.test" })
        .MAIL_FROM,
    ).toBe("m@example.com");
    const missing = configError({ NODE_ENV: "test", SMTP_URL: "smtp://localhost:25" }).message;
    expect(missing).toContain("MAIL_FROM is required with SMTP_URL");
    expect(missing).toContain("PUBLIC_URL is required with SMTP_URL");
    expect(configError({ NODE_ENV: "test", SMTP_URL: "http://smtp.example.com" }).message).toContain(
      "SMTP_URL must be an smtp:// or smtps:// address",
    );
    expect(
      configError({ NODE_ENV: "test", SMTP_URL: "smtp://h", MAIL_FROM: "not an address", PUBLIC_URL: "http://x.test" }).message,
    ).toContain("MAIL_FROM must be an address");
  });

  it("reports a missing session secret and a missing admin password together", () => {
    const error = configError({ NODE_ENV: "production", ADMIN_USERNAME: "family" });
    expect(error.message).toContain("SESSION_SECRET");
    expect(error.message).toContain("ADMIN_PASSWORD");
  });
});
