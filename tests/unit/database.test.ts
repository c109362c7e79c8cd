import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase, type DB } from "../../db/client.server";
import { adminUsers, memories, poems, rsvps, uploads, users } from "../../db/schema";

/** Every migration committed under db/migrations, as drizzle-kit lists them. */
const MIGRATION_COUNT = (JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] })
  .entries.length;

interface ColumnInfo {
  name: string;
  type: string;
  notnull: 0 | 1;
  dflt_value: string | null;
  pk: number;
}

interface IndexListRow {
  name: string;
  unique: 0 | 1;
}

const dir = mkdtempSync(path.join(tmpdir(), "memorial-db-test-"));
let counter = 0;
const opened: DB[] = [];

/** A brand-new, migrated database file that no other test touches. */
function freshDatabase(migrationsFolder = MIGRATIONS_DIR): { db: DB; file: string } {
  counter += 1;
  const file = path.join(dir, `fresh-${counter}`, "memorial.db");
  const db = openDatabase(file, migrationsFolder);
  opened.push(db);
  return { db, file };
}

function columns(db: DB, table: string): Map<string, ColumnInfo> {
  const rows = db.$client.prepare(`PRAGMA table_info("${table}")`).all() as ColumnInfo[];
  return new Map(rows.map((r) => [r.name, r]));
}

function indexColumns(db: DB, index: string): string[] {
  const rows = db.$client.prepare(`PRAGMA index_info("${index}")`).all() as { name: string }[];
  return rows.map((r) => r.name);
}

function indexesOf(db: DB, table: string): IndexListRow[] {
  return db.$client.prepare(`PRAGMA index_list("${table}")`).all() as IndexListRow[];
}

/** True when some index on `table` starts with exactly these columns. */
function hasIndexOn(db: DB, table: string, cols: string[]): boolean {
  return indexesOf(db, table).some((idx) => {
    const indexed = indexColumns(db, idx.name);
    return cols.every((c, i) => indexed[i] === c);
  });
}

afterAll(() => {
  for (const db of opened) {
    try {
      db.$client.close();
    } catch {
      // already closed
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("migrating an empty database file", () => {
  const expectedColumns: Record<string, string[]> = {
    sessions: ["sid", "sess", "expire"],
    users: ["id", "email", "firstName", "lastName", "profileImageUrl", "createdAt", "updatedAt"],
    // Who approved or rejected it and when, for the details dialogs.
    // …and, once the family has corrected it, what the visitor sent and who corrected it when.
    memories: [
      "id",
      "name",
      "email",
      "phone",
      "message",
      "canDisplay",
      "status",
      "createdAt",
      "moderatedBy",
      "moderatedAt",
      "setAside",
      "originalName",
      "originalMessage",
      "editedBy",
      "editedAt",
      // The visitor's wish for one e-mail once it is published, and when it was queued.
      "notifyWhenPublished",
      "publishedNoticeAt",
      // The language the visitor wrote in: their e-mails are written in it.
      "language",
    ],
    uploads: [
      "id",
      "submittedBy",
      "type",
      "originalName",
      "url",
      "thumbnailUrl",
      "width",
      "height",
      "durationSec",
      "status",
      "createdAt",
      // Where the files live, for the server only (never in a view).
      "storageKey",
      "mimeType",
      "sizeBytes",
      "displayKey",
      "thumbnailKey",
      "rotation",
      "processedAt",
      // Why processing gave up on it, for the admin.
      "processingError",
      // A video's web copy: "remuxed" or "encoded" once made (docs/decisions/016-web-video.md).
      "webVideo",
      "moderatedBy",
      "moderatedAt",
      "setAside",
      "notifyWhenPublished",
      "publishedNoticeAt",
      // A voice memory's typed line, and the guest book's permission to show it.
      "caption",
      "canDisplay",
      // The language the sender used: their e-mails are written in it.
      "language",
    ],
    // Upload keys handed out and not yet completed, who asked and how many bytes they hold.
    signed_uploads: ["key", "multipartUploadId", "clientKey", "bytes", "createdAt"],
    // Events counted by the rate limits, kept across restarts.
    rate_limit_hits: ["id", "bucket", "key", "at", "weight"],
    // …and each admin's e-mail: the address, each item / a daily summary at a time / none, and the last summary's day.
    admin_users: ["id", "username", "password", "createdAt", "email", "mailChoice", "digestTime", "digestSentFor", "role"],
    // E-mail committed with its event and sent after; unsubscribe links (hashed) and the addresses that used one.
    mail_outbox: [
      "id",
      "kind",
      "recipient",
      "subject",
      "text",
      "html",
      "attachments",
      "messageId",
      "unsubscribeUrl",
      "dedupeKey",
      "createdAt",
      "attempts",
      "nextAttemptAt",
      "claimedUntil",
      "sentAt",
      "failedAt",
      "lastError",
    ],
    mail_unsubscribe_tokens: ["tokenHash", "email", "createdAt"],
    mail_suppressions: ["email", "createdAt"],
    // The family's settings (one row per setting changed) and invitations for more admins.
    site_settings: ["key", "value", "updatedAt", "updatedBy"],
    admin_invitations: ["id", "tokenHash", "createdBy", "createdAt", "expiresAt", "usedAt", "usedBy", "role"],
    poems: ["id", "title", "content", "author", "createdAt"],
    // The life story (one row) and its timeline.
    life_story: ["id", "story", "answers", "photoId", "published", "publishedAt", "updatedAt", "updatedBy"],
    life_moments: ["id", "date", "title", "text", "photoId", "createdAt"],
    // …with the language the visitor answered in.
    rsvps: ["id", "name", "email", "guestCount", "notes", "createdAt", "language"],
  };

  it("creates the seven tables of the data model, the upload bookkeeping, the rate-limit, settings, invitation, mail, life story, follower and candle tables", () => {
    const { db } = freshDatabase();
    const tables = (
      db.$client
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name",
        )
        .all() as { name: string }[]
    ).map((r) => r.name);
    expect(tables).toEqual(
      [
        "admin_invitations",
        "admin_users",
        "candles",
        "followers",
        "life_moments",
        "life_story",
        "mail_outbox",
        "mail_suppressions",
        "mail_unsubscribe_tokens",
        "memories",
        "poems",
        "rate_limit_hits",
        "rsvps",
        "sessions",
        "signed_uploads",
        "site_settings",
        "uploads",
        "users",
      ].sort(),
    );
  });

  it.each(Object.entries(expectedColumns))("gives the %s table every column of the spec and no others", (table, cols) => {
    const { db } = freshDatabase();
    expect([...columns(db, table).keys()].sort()).toEqual([...cols].sort());
  });

  it("marks the spec's required fields NOT NULL and leaves optional ones nullable", () => {
    const { db } = freshDatabase();
    const required: Record<string, string[]> = {
      sessions: ["sess", "expire"],
      memories: ["name", "email", "message", "canDisplay", "status", "createdAt"],
      uploads: ["type", "url", "status", "createdAt"],
      admin_users: ["username", "password"],
      poems: ["title", "content"],
      rsvps: ["name", "email", "guestCount"],
    };
    const optional: Record<string, string[]> = {
      users: ["email", "firstName", "lastName", "profileImageUrl"],
      memories: ["phone"],
      uploads: ["submittedBy", "originalName", "thumbnailUrl", "width", "height", "durationSec"],
      poems: ["author"],
      rsvps: ["notes"],
    };
    for (const [table, cols] of Object.entries(required)) {
      const info = columns(db, table);
      for (const col of cols) expect(info.get(col)?.notnull, `${table}.${col}`).toBe(1);
    }
    for (const [table, cols] of Object.entries(optional)) {
      const info = columns(db, table);
      for (const col of cols) expect(info.get(col)?.notnull, `${table}.${col}`).toBe(0);
    }
  });

  it("makes sid the primary key of sessions and stores width, height, duration and guest count as integers", () => {
    const { db } = freshDatabase();
    expect(columns(db, "sessions").get("sid")?.pk).toBe(1);
    const up = columns(db, "uploads");
    expect(up.get("width")?.type.toLowerCase()).toBe("integer");
    expect(up.get("height")?.type.toLowerCase()).toBe("integer");
    expect(up.get("durationSec")?.type.toLowerCase()).toBe("integer");
    expect(columns(db, "rsvps").get("guestCount")?.type.toLowerCase()).toBe("integer");
  });

  it("indexes sessions by expiry so expired sessions can be swept quickly", () => {
    const { db } = freshDatabase();
    const row = db.$client
      .prepare("select name, tbl_name from sqlite_master where type = 'index' and name = 'sessions_expire_idx'")
      .get() as { name: string; tbl_name: string } | undefined;
    expect(row?.tbl_name).toBe("sessions");
    expect(indexColumns(db, "sessions_expire_idx")).toEqual(["expire"]);
    expect(hasIndexOn(db, "sessions", ["expire"])).toBe(true);
  });

  it("indexes memories by status and creation time for the moderation and guest book lists", () => {
    const { db } = freshDatabase();
    expect(hasIndexOn(db, "memories", ["status", "createdAt"])).toBe(true);
  });

  it("indexes uploads by status, type and creation time for the gallery filters", () => {
    const { db } = freshDatabase();
    expect(hasIndexOn(db, "uploads", ["status", "type", "createdAt"])).toBe(true);
    expect(hasIndexOn(db, "uploads", ["status", "createdAt"])).toBe(true);
  });

  it("opens the database in WAL mode with foreign keys enforced", () => {
    const { db } = freshDatabase();
    expect(String(db.$client.pragma("journal_mode", { simple: true })).toLowerCase()).toBe("wal");
    expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
  });
});

describe("the migration that lets the family unpublish (0005)", () => {
  it("keeps every memory and upload as it was, and never hands out the id of one deleted before it", () => {
    // A database as the site left it before 0005: the first five migrations only.
    const before = path.join(dir, "before-0005");
    mkdirSync(path.join(before, "meta"), { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    journal.entries = journal.entries.slice(0, 5);
    for (const { tag } of journal.entries) copyFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), path.join(before, `${tag}.sql`));
    writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify(journal));
    const { db, file } = freshDatabase(before);
    db.$client.exec(`
      insert into memories (name, email, message, status, moderatedBy) values ('Ann', 'ann@x.org', 'The lake in summer.', 'APPROVED', 'keeper');
      insert into memories (name, email, message) values ('Ben', 'ben@x.org', 'Waiting for review.');
      insert into memories (name, email, message) values ('Cy', 'cy@x.org', 'Deleted later.');
      delete from memories where name = 'Cy';
      insert into uploads (type, url, status, storageKey) values ('IMAGE', '/media/1/a.jpg', 'APPROVED', 'a.jpg');
      insert into uploads (type, url) values ('VIDEO', '/media/2/b.mp4');
      delete from uploads where url = '/media/2/b.mp4';
    `);
    db.$client.close();

    const migrated = openDatabase(file);
    opened.push(migrated);
    expect(
      migrated.select({ name: memories.name, status: memories.status, moderatedBy: memories.moderatedBy }).from(memories).all(),
    ).toEqual([
      { name: "Ann", status: "APPROVED", moderatedBy: "keeper" },
      { name: "Ben", status: "PENDING", moderatedBy: null },
    ]);
    expect(migrated.select({ url: uploads.url, storageKey: uploads.storageKey }).from(uploads).all()).toEqual([
      { url: "/media/1/a.jpg", storageKey: "a.jpg" },
    ]);
    const memory = migrated
      .insert(memories)
      .values({ name: "Dee", email: "dee@x.org", message: "After the change.", status: "HIDDEN" })
      .returning()
      .get();
    const upload = migrated.insert(uploads).values({ type: "IMAGE", url: "/media/x.jpg", status: "HIDDEN" }).returning().get();
    expect([memory.id, upload.id]).toEqual([4, 3]);
    expect(migrated.$client.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
    expect(hasIndexOn(migrated, "memories", ["status", "canDisplay", "createdAt"])).toBe(true);
    expect(hasIndexOn(migrated, "uploads", ["status", "type", "createdAt"])).toBe(true);
  });
});

/** A migrations folder holding only the first `count` migrations: a database as the site left it before the next. */
function migrationsUpTo(name: string, count: number) {
  const folder = path.join(dir, name);
  mkdirSync(path.join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, count);
  for (const { tag } of journal.entries) copyFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  return folder;
}

describe("the migration that lets uploads be voices (0011)", () => {
  it("keeps every upload, the life story's photo and the moments' photos, and never hands out a deleted upload's id", () => {
    const { db, file } = freshDatabase(migrationsUpTo("before-0011", 11));
    db.$client.exec(`
      insert into uploads (type, url, status, storageKey, setAside) values ('IMAGE', '/media/1/a.jpg', 'APPROVED', 'a.jpg', 0);
      insert into uploads (type, url, status, storageKey) values ('VIDEO', '/media/2/b.mp4', 'REJECTED', 'b.mp4');
      insert into uploads (type, url) values ('IMAGE', '/media/3/c.jpg');
      delete from uploads where id = 3;
      insert into life_story (id, story, photoId) values (1, 'Jo was born by the sea.', 1);
      insert into life_moments (date, title, photoId) values ('1970', 'Married', 1);
    `);
    db.$client.close();

    const migrated = openDatabase(file);
    opened.push(migrated);
    expect(migrated.$client.prepare("select photoId from life_story").get()).toEqual({ photoId: 1 });
    expect(migrated.$client.prepare("select photoId from life_moments").get()).toEqual({ photoId: 1 });
    expect(
      migrated
        .select({ id: uploads.id, type: uploads.type, status: uploads.status, caption: uploads.caption, canDisplay: uploads.canDisplay })
        .from(uploads)
        .all(),
    ).toEqual([
      { id: 1, type: "IMAGE", status: "APPROVED", caption: null, canDisplay: true },
      { id: 2, type: "VIDEO", status: "REJECTED", caption: null, canDisplay: true },
    ]);
    const voice = migrated
      .insert(uploads)
      .values({ type: "AUDIO", url: "/media/v.m4a", caption: "Happy birthday, Jo", canDisplay: false })
      .returning()
      .all()[0]!;
    expect(voice.id).toBe(4);
    expect(() => migrated.$client.exec("insert into uploads (type, url) values ('TEXT', '/x')")).toThrow(/CHECK/);
    // Foreign keys are on again once the site is open.
    expect(migrated.$client.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(migrated.$client.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
    expect(hasIndexOn(migrated, "uploads", ["status", "type", "createdAt"])).toBe(true);
  });
});

describe("usernames that differ only in case", () => {
  it("keeps admins added before usernames ignored case: the first keeps the name, a later one gets its id added, with its invitations", () => {
    // A database as the site left it before 0007, with two admins the admin command could add then.
    const before = path.join(dir, "before-0007");
    mkdirSync(path.join(before, "meta"), { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    journal.entries = journal.entries.slice(0, 7);
    for (const { tag } of journal.entries) copyFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), path.join(before, `${tag}.sql`));
    writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify(journal));
    const { db, file } = freshDatabase(before);
    db.$client.exec(`
      insert into admin_users (username, password) values ('Margaret', 'hash-1'), ('margaret', 'hash-2'), ('Tom', 'hash-3');
      insert into admin_invitations (tokenHash, createdBy, expiresAt) values ('t1', 'margaret', 1), ('t2', 'Margaret', 1);
    `);
    db.$client.close();

    const migrated = openDatabase(file);
    opened.push(migrated);
    expect(
      migrated.select({ id: adminUsers.id, username: adminUsers.username, password: adminUsers.password }).from(adminUsers).all(),
    ).toEqual([
      { id: 1, username: "Margaret", password: "hash-1" },
      { id: 2, username: "margaret-2", password: "hash-2" },
      { id: 3, username: "Tom", password: "hash-3" },
    ]);
    expect(migrated.$client.prepare("select tokenHash, createdBy from admin_invitations order by tokenHash").all()).toEqual([
      { tokenHash: "t1", createdBy: "margaret-2" },
      { tokenHash: "t2", createdBy: "Margaret" },
    ]);
    expect(() => migrated.insert(adminUsers).values({ username: "TOM", password: "hash-4" }).run()).toThrow(/UNIQUE constraint failed/);
  });
});

describe("applying the migrations more than once", () => {
  it("keeps existing data and records the migration only once when the file is reopened", () => {
    const { db, file } = freshDatabase();
    db.insert(poems).values({ title: "Still here", content: "After a restart" }).run();
    db.$client.close();

    const reopened = openDatabase(file);
    opened.push(reopened);
    const rows = reopened.select().from(poems).all();
    expect(rows.map((r) => r.title)).toEqual(["Still here"]);
    const applied = reopened.$client.prepare("select count(*) as n from __drizzle_migrations").get() as {
      n: number;
    };
    expect(applied.n).toBe(MIGRATION_COUNT);
  });

  it("does nothing when migrate runs again on an open connection", () => {
    const { db } = freshDatabase();
    db.insert(rsvps).values({ name: "Ann", email: "ann@example.com", guestCount: 3 }).run();
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    expect(
      db
        .select()
        .from(rsvps)
        .all()
        .map((r) => r.guestCount),
    ).toEqual([3]);
    const tableCount = db.$client
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'")
      .get() as { n: number };
    expect(tableCount.n).toBe(18);
  });
});

describe("defaults filled in by the database", () => {
  let db: DB;
  beforeAll(() => {
    db = freshDatabase().db;
  });

  it("stores a new memory as PENDING, displayable, with a creation time of now", () => {
    const before = Date.now();
    const row = db
      .insert(memories)
      .values({ name: "Grace", email: "grace@example.com", message: "A lovely person to know." })
      .returning()
      .get();
    const after = Date.now();
    expect(row.status).toBe("PENDING");
    expect(row.canDisplay).toBe(true);
    expect(row.phone).toBeNull();
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 2000);
    expect(row.createdAt.getTime()).toBeLessThanOrEqual(after + 2000);

    const raw = db.$client.prepare("select status, canDisplay from memories where id = ?").get(row.id) as {
      status: string;
      canDisplay: number;
    };
    expect(raw).toEqual({ status: "PENDING", canDisplay: 1 });
  });

  it("fills memory defaults even for rows written with plain SQL", () => {
    const info = db.$client
      .prepare("insert into memories (name, email, message) values ('Raw', 'raw@example.com', 'Written without drizzle')")
      .run();
    const raw = db.$client.prepare("select status, canDisplay, createdAt from memories where id = ?").get(info.lastInsertRowid) as {
      status: string;
      canDisplay: number;
      createdAt: number;
    };
    expect(raw.status).toBe("PENDING");
    expect(raw.canDisplay).toBe(1);
    expect(Math.abs(raw.createdAt - Date.now())).toBeLessThan(5000);
  });

  it("stores a new upload as PENDING", () => {
    const row = db.insert(uploads).values({ type: "IMAGE", url: "/uploads/a.jpg" }).returning().get();
    expect(row.status).toBe("PENDING");
    expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(5000);
    const fetched = db.select().from(uploads).where(eq(uploads.id, row.id)).get();
    expect(fetched?.status).toBe("PENDING");
  });

  it("counts an RSVP without a guest count as one guest", () => {
    const row = db.insert(rsvps).values({ name: "Bo", email: "bo@example.com" }).returning().get();
    expect(row.guestCount).toBe(1);
    expect(row.notes).toBeNull();
  });

  it("generates a distinct id for every user", () => {
    const a = db.insert(users).values({ email: "a@example.com" }).returning().get();
    const b = db.insert(users).values({ firstName: "No email" }).returning().get();
    expect(a.id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.createdAt).toBeInstanceOf(Date);
    expect(a.updatedAt).toBeInstanceOf(Date);
  });
});

describe("constraints the database refuses to break", () => {
  let db: DB;
  beforeAll(() => {
    db = freshDatabase().db;
  });
  afterEach(() => {
    for (const table of ["memories", "uploads", "rsvps", "admin_users", "users"]) {
      db.$client.prepare(`delete from ${table}`).run();
    }
  });

  function count(table: string): number {
    return (db.$client.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  }

  it("refuses a memory status other than PENDING, APPROVED or REJECTED", () => {
    expect(() =>
      db.$client.prepare("insert into memories (name, email, message, status) values ('A', 'a@x.org', 'hello there', 'PUBLISHED')").run(),
    ).toThrow(/CHECK constraint failed/);
    expect(count("memories")).toBe(0);
  });

  it("accepts each of the four memory statuses, HIDDEN (unpublished by the family) included", () => {
    for (const status of ["PENDING", "APPROVED", "REJECTED", "HIDDEN"]) {
      db.$client.prepare("insert into memories (name, email, message, status) values ('A', 'a@x.org', 'hello there', ?)").run(status);
      db.$client.prepare("insert into uploads (type, url, status) values ('IMAGE', '/u/1.jpg', ?)").run(status);
    }
    expect(count("memories")).toBe(4);
    expect(count("uploads")).toBe(4);
  });

  it("refuses an upload status outside the enumeration", () => {
    expect(() => db.$client.prepare("insert into uploads (type, url, status) values ('IMAGE', '/u/1.jpg', 'pending')").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(count("uploads")).toBe(0);
  });

  it("refuses an upload type other than IMAGE, VIDEO or AUDIO", () => {
    expect(() => db.$client.prepare("insert into uploads (type, url) values ('TEXT', '/u/1.txt')").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(() => db.$client.prepare("insert into uploads (type, url) values ('image', '/u/1.jpg')").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(count("uploads")).toBe(0);
    db.$client.prepare("insert into uploads (type, url) values ('VIDEO', '/u/1.mp4')").run();
    expect(count("uploads")).toBe(1);
  });

  it.each([0, 11, -1])("refuses an RSVP with %i guests", (guests) => {
    expect(() => db.insert(rsvps).values({ name: "Cy", email: "cy@example.com", guestCount: guests }).run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(count("rsvps")).toBe(0);
  });

  it("accepts RSVPs of 1 and 10 guests", () => {
    db.insert(rsvps).values({ name: "One", email: "1@example.com", guestCount: 1 }).run();
    db.insert(rsvps).values({ name: "Ten", email: "10@example.com", guestCount: 10 }).run();
    expect(
      db
        .select()
        .from(rsvps)
        .all()
        .map((r) => r.guestCount)
        .sort((a, b) => a - b),
    ).toEqual([1, 10]);
  });

  it("refuses a second admin with the same username, whatever its case", () => {
    db.insert(adminUsers).values({ username: "family", password: "hash-1" }).run();
    expect(() => db.insert(adminUsers).values({ username: "family", password: "hash-2" }).run()).toThrow(
      /UNIQUE constraint failed: admin_users\.username/,
    );
    expect(() => db.insert(adminUsers).values({ username: "Family", password: "hash-2" }).run()).toThrow(
      /UNIQUE constraint failed: admin_users\.username/,
    );
    expect(
      db
        .select()
        .from(adminUsers)
        .all()
        .map((a) => a.password),
    ).toEqual(["hash-1"]);
  });

  it("refuses a second user with the same email but allows several users without one", () => {
    db.insert(users).values({ email: "same@example.com" }).run();
    expect(() => db.insert(users).values({ email: "same@example.com" }).run()).toThrow(/UNIQUE constraint failed: users\.email/);
    db.insert(users).values({ firstName: "First" }).run();
    db.insert(users).values({ firstName: "Second" }).run();
    expect(count("users")).toBe(3);
  });

  it("refuses rows that miss a required field", () => {
    const attempts: [string, string][] = [
      ["memory without a name", "insert into memories (email, message) values ('a@x.org', 'hello there')"],
      ["memory without an email", "insert into memories (name, message) values ('A', 'hello there')"],
      ["memory without a message", "insert into memories (name, email) values ('A', 'a@x.org')"],
      ["upload without a url", "insert into uploads (type) values ('IMAGE')"],
      ["upload without a type", "insert into uploads (url) values ('/u/1.jpg')"],
      ["poem without a title", "insert into poems (content) values ('words')"],
      ["poem without content", "insert into poems (title) values ('A title')"],
      ["rsvp without an email", "insert into rsvps (name) values ('A')"],
      ["admin without a password", "insert into admin_users (username) values ('someone')"],
      ["session without data", "insert into sessions (sid, expire) values ('s1', 1)"],
      ["session without expiry", "insert into sessions (sid, sess) values ('s2', '{}')"],
    ];
    for (const [label, statement] of attempts) {
      expect(() => db.$client.prepare(statement).run(), label).toThrow(/NOT NULL constraint failed/);
    }
    expect(count("memories") + count("uploads") + count("poems") + count("rsvps") + count("admin_users")).toBe(0);
    expect(count("sessions")).toBe(0);
  });

  it("refuses a memory whose canDisplay is not a boolean", () => {
    expect(() =>
      db.$client.prepare("insert into memories (name, email, message, canDisplay) values ('A', 'a@x.org', 'hello there', 2)").run(),
    ).toThrow(/CHECK constraint failed/);
  });
});
