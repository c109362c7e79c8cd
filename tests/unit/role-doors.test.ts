// Every door of the admin panel, for every role: a table of every route file
// under /admin and /api/admin (read from app/routes when the test runs, so a
// route added later fails here until it is given its row), each method, and
// three callers: nobody (no session), a helper and a family admin. Nobody is
// sent to log in (a page) or answered 401 (the API); a helper at a
// family-only address is answered 403 (the polite page's {forbidden}, or the
// API's {"errors":{"role":[…]}}) before her body is read, and her refused
// request changes nothing in the database or in storage; a helper at her own
// addresses, and the family anywhere, pass the door (whatever the route then
// answers). Called in process, as Remix calls loaders and actions, on a real
// SQLite database.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  adminInvitations,
  adminUsers,
  candles,
  followers,
  lifeMoments,
  lifeStory,
  mailOutbox,
  memories,
  poems,
  sessions,
  siteSettings,
  uploads,
  type Role,
} from "../../db/schema";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { createInvitation } from "~/admins/invitation.server";
import { hashPassword } from "~/admins/password.server";
import { FAMILY_ONLY, FAMILY_ONLY_PAGE } from "~/admins/roles";
import { startAdminSession } from "~/admins/session.server";
import { operator } from "~/platform/actor.server";
import { db } from "~/platform/db.server";
import * as adminLayout from "~/routes/admin";
import * as adminIndex from "~/routes/admin._index";
import * as adminAccount from "~/routes/admin.account";
import * as adminAdmins from "~/routes/admin.admins";
import * as adminAttendance from "~/routes/admin.attendance";
import * as adminEmail from "~/routes/admin.email";
import * as adminExports from "~/routes/admin.exports";
import * as adminLife from "~/routes/admin.life";
import * as adminLifePhoto from "~/routes/admin.life_.photo";
import * as adminMemory from "~/routes/admin.memories.$id";
import * as adminPoemDelete from "~/routes/admin.poems.$id.delete";
import * as adminPoems from "~/routes/admin.poems";
import * as adminPrint from "~/routes/admin.print";
import * as adminPublishedIndex from "~/routes/admin.published._index";
import * as adminPublishedMemoryDelete from "~/routes/admin.published.memories.$id.delete";
import * as adminPublishedMemoryEdit from "~/routes/admin.published.memories.$id.edit";
import * as adminPublishedMemories from "~/routes/admin.published.memories";
import * as adminPublished from "~/routes/admin.published";
import * as adminPublishedUploadDelete from "~/routes/admin.published.uploads.$id.delete";
import * as adminPublishedUploads from "~/routes/admin.published.uploads";
import * as adminRememberRemove from "~/routes/admin.remember.$id.remove";
import * as adminRemember from "~/routes/admin.remember";
import * as adminSetAside from "~/routes/admin.set-aside";
import * as adminSite from "~/routes/admin.site";
import * as adminSiteHero from "~/routes/admin.site_.hero";
import * as adminSiteSong from "~/routes/admin.site_.song";
import * as adminUpload from "~/routes/admin.uploads.$id";
import * as adminUploads from "~/routes/admin.uploads";
import * as archiveZip from "~/routes/admin_.exports.archive[.]zip";
import * as bookJson from "~/routes/admin_.exports.book[.]json";
import * as bookPdf from "~/routes/admin_.exports.book[.]pdf";
import * as invite from "~/routes/admin_.invite.$token";
import * as login from "~/routes/admin_.login";
import * as logout from "~/routes/admin_.logout";
import * as setup from "~/routes/admin_.setup";
import * as apiAdmin from "~/routes/api.admin.admins.$id";
import * as apiSetAside from "~/routes/api.admin.set-aside";
import * as apiAdmins from "~/routes/api.admin.admins";
import * as apiCandle from "~/routes/api.admin.candles.$id";
import * as apiEmail from "~/routes/api.admin.email";
import * as contactsCsv from "~/routes/api.admin.export.contacts[.]csv";
import * as followersCsv from "~/routes/api.admin.export.followers[.]csv";
import * as memoriesCsv from "~/routes/api.admin.export.memories[.]csv";
import * as apiFollower from "~/routes/api.admin.followers.$id";
import * as apiFollowers from "~/routes/api.admin.followers";
import * as apiLife from "~/routes/api.admin.life";
import * as apiLogin from "~/routes/api.admin.login";
import * as apiLogout from "~/routes/api.admin.logout";
import * as apiMemory from "~/routes/api.admin.memories.$id";
import * as apiOutboxRetry from "~/routes/api.admin.outbox.$id.retry";
import * as apiPassword from "~/routes/api.admin.password";
import * as apiPendingCandles from "~/routes/api.admin.pending-candles";
import * as apiPendingMemories from "~/routes/api.admin.pending-memories";
import * as apiPendingUploads from "~/routes/api.admin.pending-uploads";
import * as apiPoem from "~/routes/api.admin.poems.$id";
import * as apiPoems from "~/routes/api.admin.poems";
import * as apiPublishedMemories from "~/routes/api.admin.published-memories";
import * as apiPublishedUploads from "~/routes/api.admin.published-uploads";
import * as apiRsvpStats from "~/routes/api.admin.rsvps.stats";
import * as apiSettings from "~/routes/api.admin.settings";
import * as apiRotate from "~/routes/api.admin.uploads.$id.rotate";
import * as apiUpload from "~/routes/api.admin.uploads.$id";
import { answer } from "../support/route-calls";

const ORIGIN = "http://localhost";
const context = { clientIp: "10.60.0.1" };
const ROUTES_DIR = path.resolve(import.meta.dirname, "../../app/routes");
const OBJECTS = path.join(process.env.STORAGE_DIR!, "objects");
const LOG_IN_FIRST = { errors: { session: ["Log in as the administrator first"] } };
/** An id nothing has: for the routes where the family's own call would otherwise need real media files. */
const NOBODY = "999999";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** Who may pass: anyone (the login, the logout, an invitation, the first run), any admin, or the family only. */
type Who = "public" | "helper" | "family";

/** What each test starts with (beforeEach): the two admins, and one of each thing a form may change. */
interface Fixtures {
  keeper: { id: number; username: string };
  helen: { id: number; username: string };
  pendingMemory: number;
  publishedMemory: number;
  poem: number;
  follower: number;
  candle: number;
  unsentMail: number;
  invitation: string;
}

type RouteFunction = (args: never) => unknown;
interface Door {
  module: { loader?: RouteFunction; action?: RouteFunction; default?: unknown };
  /** page: the login page and the polite 403 page; api: 401 and 403 in the API's error shape. */
  kind: "page" | "api";
  who: Who;
  /** The methods the route itself answers (the others: 405 past the door for an API or a download, the form's action again for a page). */
  methods: Method[];
  /** A download rather than a page (no form): it has an action for the other methods, 405 past its door. */
  download?: true;
  /** The address asked (with its query), from the fixtures. */
  url: (f: Fixtures) => string;
  params?: (f: Fixtures) => Record<string, string>;
  /** A body that would change something: a form for a page, JSON for the API. */
  form?: (f: Fixtures) => Record<string, string>;
  json?: (f: Fixtures) => unknown;
}

const at = (address: string) => () => address;
const page = (door: Omit<Door, "kind">): Door => ({ ...door, kind: "page" });
const api = (door: Omit<Door, "kind">): Door => ({ ...door, kind: "api" });

/**
 * Every admin route file (app/routes, named without its extension), with
 * who may use it. A helper moderates, unpublishes, corrects, adds poems and
 * reads attendance; the rest is the family's (app/admins/roles.ts).
 */
const DOORS: Record<string, Door> = {
  // The panel's layout and its tabs.
  admin: page({ module: adminLayout, who: "helper", methods: ["GET"], url: at("/admin") }),
  "admin._index": page({
    module: adminIndex,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin"),
    form: (f) => ({ intent: "approve", id: String(f.pendingMemory) }),
  }),
  "admin.account": page({
    module: adminAccount,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin/account"),
    form: () => ({
      intent: "change-password",
      currentPassword: "not-the-password",
      newPassword: "a-new-password",
      confirmPassword: "a-new-password",
    }),
  }),
  "admin.admins": page({
    module: adminAdmins,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/admins"),
    // The helper making herself family.
    form: (f) => ({ intent: "set-role", id: String(f.helen.id), role: "family" }),
  }),
  "admin.attendance": page({ module: adminAttendance, who: "helper", methods: ["GET"], url: at("/admin/attendance") }),
  "admin.email": page({
    module: adminEmail,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin/email"),
    form: () => ({ intent: "save", email: "own@example.com", mailChoice: "each", digestTime: "09:00" }),
  }),
  "admin.exports": page({ module: adminExports, who: "family", methods: ["GET"], url: at("/admin/exports") }),
  "admin.life": page({
    module: adminLife,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/life"),
    form: () => ({ intent: "publish", story: "Words the family never wrote." }),
  }),
  "admin.life_.photo": page({
    module: adminLifePhoto,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/life/photo"),
    form: () => ({ intent: "reset" }),
  }),
  "admin.memories.$id": page({
    module: adminMemory,
    who: "helper",
    methods: ["GET", "POST"],
    url: (f) => `/admin/memories/${f.pendingMemory}`,
    params: (f) => ({ id: String(f.pendingMemory) }),
    form: (f) => ({ intent: "approve", id: String(f.pendingMemory) }),
  }),
  "admin.poems": page({
    module: adminPoems,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin/poems"),
    form: () => ({ intent: "create", title: "A poem", content: "Two lines,\nno more." }),
  }),
  "admin.poems.$id.delete": page({
    module: adminPoemDelete,
    who: "family",
    methods: ["GET", "POST"],
    url: (f) => `/admin/poems/${f.poem}/delete`,
    params: (f) => ({ id: String(f.poem) }),
    form: () => ({ intent: "delete" }),
  }),
  "admin.print": page({ module: adminPrint, who: "family", methods: ["GET"], url: at("/admin/print") }),
  "admin.published": page({ module: adminPublished, who: "helper", methods: [], url: at("/admin/published") }),
  "admin.published._index": page({ module: adminPublishedIndex, who: "helper", methods: ["GET"], url: at("/admin/published") }),
  "admin.published.memories": page({
    module: adminPublishedMemories,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin/published/memories"),
    form: (f) => ({ intent: "unpublish", id: String(f.publishedMemory) }),
  }),
  "admin.published.memories.$id.edit": page({
    module: adminPublishedMemoryEdit,
    who: "helper",
    methods: ["GET", "POST"],
    url: (f) => `/admin/published/memories/${f.publishedMemory}/edit`,
    params: (f) => ({ id: String(f.publishedMemory) }),
    form: () => ({ name: "Cousin Ellen", message: "I remember the summer at the lake, corrected." }),
  }),
  // A helper's "delete" (here and in the API's DELETE) is hers to use; what it does for her (set aside, for the family to undo) is the model's.
  "admin.published.memories.$id.delete": page({
    module: adminPublishedMemoryDelete,
    who: "helper",
    methods: ["GET", "POST"],
    url: (f) => `/admin/published/memories/${f.publishedMemory}/delete`,
    params: (f) => ({ id: String(f.publishedMemory) }),
    form: () => ({ intent: "delete" }),
  }),
  "admin.published.uploads": page({
    module: adminPublishedUploads,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin/published/uploads"),
    form: () => ({ intent: "unpublish", id: NOBODY }),
  }),
  "admin.published.uploads.$id.delete": page({
    module: adminPublishedUploadDelete,
    who: "helper",
    methods: ["GET", "POST"],
    url: at(`/admin/published/uploads/${NOBODY}/delete`),
    params: () => ({ id: NOBODY }),
    form: () => ({ intent: "delete" }),
  }),
  "admin.remember": page({
    module: adminRemember,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/remember"),
    form: () => ({ intent: "save", anniversary: "on", daysBefore: "7", sendAt: "09:00", words: "Light a candle with us." }),
  }),
  "admin.remember.$id.remove": page({
    module: adminRememberRemove,
    who: "family",
    methods: ["GET", "POST"],
    url: (f) => `/admin/remember/${f.follower}/remove`,
    params: (f) => ({ id: String(f.follower) }),
    form: () => ({ intent: "delete" }),
  }),
  "admin.set-aside": page({
    module: adminSetAside,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/set-aside?kind=memory"),
    form: () => ({ intent: "publish", id: String(NOBODY) }),
  }),
  "admin.site": page({
    module: adminSite,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/site"),
    form: () => ({ section: "contact", contactEmail: "mallory@example.com", privacyNote: "Changed." }),
  }),
  "admin.site_.hero": page({
    module: adminSiteHero,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/site/hero"),
    form: () => ({ intent: "reset" }),
  }),
  "admin.site_.song": page({
    module: adminSiteSong,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/admin/site/song"),
    form: () => ({ intent: "reset" }),
  }),
  "admin.uploads": page({
    module: adminUploads,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/admin/uploads"),
    form: () => ({ intent: "approve", id: NOBODY }),
  }),
  "admin.uploads.$id": page({
    module: adminUpload,
    who: "helper",
    methods: ["GET", "POST"],
    url: at(`/admin/uploads/${NOBODY}`),
    params: () => ({ id: NOBODY }),
    form: () => ({ intent: "rotate-right", id: NOBODY }),
  }),

  // Downloads beside the panel: the keepsake ZIP and the memory book (a size no book has: refused once past the door, before any is made).
  "admin_.exports.archive[.]zip": page({
    module: archiveZip,
    who: "family",
    methods: ["GET"],
    download: true,
    url: at("/admin/exports/archive.zip"),
  }),
  "admin_.exports.book[.]json": api({ module: bookJson, who: "family", methods: ["GET"], url: at("/admin/exports/book.json") }),
  "admin_.exports.book[.]pdf": page({
    module: bookPdf,
    who: "family",
    methods: ["GET"],
    download: true,
    url: at("/admin/exports/book.pdf?size=none"),
  }),

  // Open to anyone: nothing behind them needs a role.
  "admin_.invite.$token": page({
    module: invite,
    who: "public",
    methods: ["GET", "POST"],
    url: (f) => `/admin/invite/${f.invitation}`,
    params: (f) => ({ token: f.invitation }),
    form: () => ({ username: "", password: "" }),
  }),
  "admin_.login": page({
    module: login,
    who: "public",
    methods: ["GET", "POST"],
    url: at("/admin/login"),
    form: () => ({ username: "", password: "" }),
  }),
  "admin_.logout": page({ module: logout, who: "public", methods: ["GET", "POST"], url: at("/admin/logout") }),
  "admin_.setup": page({ module: setup, who: "public", methods: ["GET", "POST"], url: at("/admin/setup"), form: () => ({}) }),
  "api.admin.login": api({ module: apiLogin, who: "public", methods: ["POST"], url: at("/api/admin/login"), json: () => ({}) }),
  "api.admin.logout": api({ module: apiLogout, who: "public", methods: ["POST"], url: at("/api/admin/logout") }),

  // The API.
  "api.admin.admins": api({
    module: apiAdmins,
    who: "family",
    methods: ["GET", "POST"],
    url: at("/api/admin/admins"),
    json: () => ({ username: "backdoor", password: "backdoor-password", role: "family" }),
  }),
  "api.admin.admins.$id": api({
    module: apiAdmin,
    who: "family",
    methods: ["PATCH", "DELETE"],
    url: (f) => `/api/admin/admins/${f.helen.id}`,
    params: (f) => ({ id: String(f.helen.id) }),
    json: () => ({ role: "family" }),
  }),
  "api.admin.candles.$id": api({
    module: apiCandle,
    who: "helper",
    methods: ["GET", "PATCH"],
    url: (f) => `/api/admin/candles/${f.candle}`,
    params: (f) => ({ id: String(f.candle) }),
    json: () => ({ status: "APPROVED" }),
  }),
  "api.admin.email": api({
    module: apiEmail,
    who: "helper",
    methods: ["GET", "PATCH"],
    url: at("/api/admin/email"),
    json: () => ({ email: "own@example.com", mailChoice: "each", digestTime: "09:00" }),
  }),
  "api.admin.export.contacts[.]csv": api({
    module: contactsCsv,
    who: "family",
    methods: ["GET"],
    url: at("/api/admin/export/contacts.csv"),
  }),
  "api.admin.export.followers[.]csv": api({
    module: followersCsv,
    who: "family",
    methods: ["GET"],
    url: at("/api/admin/export/followers.csv"),
  }),
  "api.admin.export.memories[.]csv": api({
    module: memoriesCsv,
    who: "family",
    methods: ["GET"],
    url: at("/api/admin/export/memories.csv"),
  }),
  "api.admin.set-aside": api({ module: apiSetAside, who: "family", methods: ["GET"], url: at("/api/admin/set-aside") }),
  "api.admin.followers": api({ module: apiFollowers, who: "family", methods: ["GET"], url: at("/api/admin/followers") }),
  "api.admin.followers.$id": api({
    module: apiFollower,
    who: "family",
    methods: ["DELETE"],
    url: (f) => `/api/admin/followers/${f.follower}`,
    params: (f) => ({ id: String(f.follower) }),
  }),
  "api.admin.life": api({
    module: apiLife,
    who: "family",
    methods: ["GET", "PUT"],
    url: at("/api/admin/life"),
    json: () => ({ story: "Words the family never wrote.", published: true }),
  }),
  "api.admin.memories.$id": api({
    module: apiMemory,
    who: "helper",
    methods: ["GET", "PATCH", "DELETE"],
    url: (f) => `/api/admin/memories/${f.pendingMemory}`,
    params: (f) => ({ id: String(f.pendingMemory) }),
    json: () => ({ status: "APPROVED" }),
  }),
  "api.admin.outbox.$id.retry": api({
    module: apiOutboxRetry,
    who: "family",
    methods: ["POST"],
    url: (f) => `/api/admin/outbox/${f.unsentMail}/retry`,
    params: (f) => ({ id: String(f.unsentMail) }),
  }),
  "api.admin.password": api({
    module: apiPassword,
    who: "helper",
    methods: ["POST"],
    url: at("/api/admin/password"),
    json: () => ({ currentPassword: "not-the-password", newPassword: "a-new-password" }),
  }),
  "api.admin.pending-candles": api({ module: apiPendingCandles, who: "helper", methods: ["GET"], url: at("/api/admin/pending-candles") }),
  "api.admin.pending-memories": api({
    module: apiPendingMemories,
    who: "helper",
    methods: ["GET"],
    url: at("/api/admin/pending-memories"),
  }),
  "api.admin.pending-uploads": api({ module: apiPendingUploads, who: "helper", methods: ["GET"], url: at("/api/admin/pending-uploads") }),
  "api.admin.poems": api({
    module: apiPoems,
    who: "helper",
    methods: ["GET", "POST"],
    url: at("/api/admin/poems"),
    json: () => ({ title: "A poem", content: "Two lines,\nno more." }),
  }),
  "api.admin.poems.$id": api({
    module: apiPoem,
    who: "family",
    methods: ["DELETE"],
    url: (f) => `/api/admin/poems/${f.poem}`,
    params: (f) => ({ id: String(f.poem) }),
  }),
  "api.admin.published-memories": api({
    module: apiPublishedMemories,
    who: "helper",
    methods: ["GET"],
    url: at("/api/admin/published-memories"),
  }),
  "api.admin.published-uploads": api({
    module: apiPublishedUploads,
    who: "helper",
    methods: ["GET"],
    url: at("/api/admin/published-uploads"),
  }),
  "api.admin.rsvps.stats": api({ module: apiRsvpStats, who: "helper", methods: ["GET"], url: at("/api/admin/rsvps/stats") }),
  "api.admin.settings": api({
    module: apiSettings,
    who: "family",
    methods: ["GET", "PATCH"],
    url: at("/api/admin/settings"),
    json: () => ({ visibility: "private", visitorPasscode: "let-me-in" }),
  }),
  "api.admin.uploads.$id": api({
    module: apiUpload,
    who: "helper",
    methods: ["GET", "PATCH", "DELETE"],
    url: at(`/api/admin/uploads/${NOBODY}`),
    params: () => ({ id: NOBODY }),
    json: () => ({ status: "APPROVED" }),
  }),
  "api.admin.uploads.$id.rotate": api({
    module: apiRotate,
    who: "helper",
    methods: ["POST"],
    url: at(`/api/admin/uploads/${NOBODY}/rotate`),
    params: () => ({ id: NOBODY }),
    json: () => ({ direction: "left" }),
  }),
};

/**
 * The admin route files of app/routes, as Remix reads them (remix.config.js
 * ignores *.server.ts, *.css.ts and tests beside the routes): a file's name
 * without its extension, or a folder's name (a folder route).
 */
function adminRouteFiles(): string[] {
  return readdirSync(ROUTES_DIR)
    .filter((name) => /^(admin[._]|admin\.tsx?$|api\.admin\.)/.test(name))
    .filter((name) => !name.startsWith(".") && !/\.(server\.tsx?|css\.ts|test\.tsx?)$/.test(name))
    .map((name) => (statSync(path.join(ROUTES_DIR, name)).isDirectory() ? name : name.replace(/\.[jt]sx?$/, "")))
    .sort();
}

/** Every row of every table (but the migrations' own), and every file in media storage: what a refused request must leave as it was. */
function everything() {
  const client = db.$client;
  const tables = client
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name",
    )
    .all() as { name: string }[];
  let files: string[] = [];
  try {
    files = readdirSync(OBJECTS, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(OBJECTS, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    // No media stored yet.
  }
  return {
    tables: Object.fromEntries(tables.map(({ name }) => [name, client.prepare(`select * from "${name}" order by rowid`).all()])),
    files,
  };
}

let passwordHash: string;
let f: Fixtures;

beforeAll(async () => {
  passwordHash = await hashPassword("the-right-password");
});

function addAdmin(username: string, role: Role) {
  return db
    .insert(adminUsers)
    .values({ username, password: passwordHash, role })
    .returning({ id: adminUsers.id, username: adminUsers.username })
    .get();
}

beforeEach(() => {
  resetLoginThrottle();
  for (const table of [
    sessions,
    adminInvitations,
    adminUsers,
    lifeMoments,
    lifeStory,
    memories,
    uploads,
    poems,
    followers,
    candles,
    mailOutbox,
  ])
    db.delete(table).run();
  db.delete(siteSettings).run();
  const keeper = addAdmin("keeper", "family");
  const helen = addAdmin("helen", "helper");
  const memory = (status: "PENDING" | "APPROVED") =>
    db
      .insert(memories)
      .values({ name: "Cousin Ellen", email: "ellen@example.com", message: "I remember the summer at the lake.", status })
      .returning({ id: memories.id })
      .get().id;
  f = {
    keeper,
    helen,
    pendingMemory: memory("PENDING"),
    publishedMemory: memory("APPROVED"),
    poem: db.insert(poems).values({ title: "Kept", content: "Still here." }).returning({ id: poems.id }).get().id,
    follower: db
      .insert(followers)
      .values({ email: "ann@example.com", name: "Ann", topics: ["new"], confirmedAt: new Date() })
      .returning({ id: followers.id })
      .get().id,
    candle: db
      .insert(candles)
      .values({ name: "Ann", message: "Thinking of you all.", visitor: "a-visitor", day: "2026-11-01" })
      .returning({ id: candles.id })
      .get().id,
    unsentMail: db
      .insert(mailOutbox)
      .values({
        kind: "new-memory",
        recipient: "family@example.com",
        subject: "A new memory",
        text: "Cousin Ellen shared a memory.",
        messageId: "<role-doors@example.com>",
        attempts: 5,
        failedAt: new Date(),
        lastError: "550 no such mailbox",
      })
      .returning({ id: mailOutbox.id })
      .get().id,
    invitation: createInvitation(operator("keeper"), Date.now(), "helper").token,
  };
});

const logIn = async (admin: { id: number; username: string }) =>
  (await startAdminSession(new Request(`${ORIGIN}/admin`), admin)).split(";")[0]!;

/**
 * Calls the route's loader (GET) or action (any other method) as Remix
 * would, with the row's body; `read` says whether the route asked for any
 * of the body.
 */
async function call(door: Door, method: Method, cookie?: string) {
  const fields = door.form?.(f);
  const data = door.json?.(f);
  const body =
    method === "GET" ? undefined : fields ? new URLSearchParams(fields).toString() : data !== undefined ? JSON.stringify(data) : undefined;
  let read = false;
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
  let stream: ReadableStream<Uint8Array> | undefined;
  if (body !== undefined) {
    const bytes = Buffer.from(body);
    headers["Content-Type"] = fields ? "application/x-www-form-urlencoded" : "application/json";
    headers["Content-Length"] = String(bytes.length);
    stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          read = true;
          controller.enqueue(new Uint8Array(bytes));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
  }
  const request = new Request(`${ORIGIN}${door.url(f)}`, { method, headers, body: stream, duplex: "half" } as RequestInit);
  const route = method === "GET" ? door.module.loader : door.module.action;
  const response = await answer(() => route!({ request, params: door.params?.(f) ?? {}, context } as never));
  return { response, read };
}

/** An API address or a download: every method has its answer (405 for those it does not take), past the same door. */
const answersEveryMethod = (door: Door) => door.kind === "api" || door.download === true;

/** The methods Remix would bring to the route: GET to its loader, any other to its action. */
const methodsCalled = (door: Door) => METHODS.filter((method) => (method === "GET" ? door.module.loader : door.module.action));

const loginAddress = (url: string) => (url === "/admin" ? "/admin/login" : `/admin/login?redirectTo=${encodeURIComponent(url)}`);

async function expectSentToLogIn(door: Door, response: Response) {
  if (door.kind === "page") {
    expect([response.status, response.headers.get("Location")]).toEqual([302, loginAddress(door.url(f))]);
  } else {
    expect([response.status, await response.json()]).toEqual([401, LOG_IN_FIRST]);
  }
}

async function expectFamilyOnly(door: Door, response: Response) {
  expect(response.status).toBe(403);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(await response.json()).toEqual(door.kind === "page" ? { forbidden: FAMILY_ONLY_PAGE.text } : { errors: { role: [FAMILY_ONLY] } });
}

/** Past the door: whatever the route answers then, it is not the door's. */
async function expectPassed(response: Response) {
  expect(response.status).not.toBe(401);
  expect(response.status).not.toBe(403);
  expect(response.headers.get("Location") ?? "").not.toMatch(/^\/admin\/login/);
  // A download's body is made as it is read: let it go.
  await response.body?.cancel();
}

describe("the table of admin routes", () => {
  it("has a row for every admin route file, and none for a file that is gone", () => {
    const files = adminRouteFiles();
    const missing = files.filter((name) => !(name in DOORS));
    expect(
      missing,
      `These route files are not in the table of tests/unit/role-doors.test.ts: give each a row saying who may use it (public, helper or family) and which methods it answers: ${missing.join(", ")}`,
    ).toEqual([]);
    const gone = Object.keys(DOORS).filter((name) => !files.includes(name));
    expect(gone, `These rows name no route file any more: ${gone.join(", ")}`).toEqual([]);
  });

  it("lists the methods each route answers: a page's loader for GET and action for a form; an API address or a download has both", () => {
    for (const [name, door] of Object.entries(DOORS)) {
      if (answersEveryMethod(door)) {
        expect([name, typeof door.module.loader, typeof door.module.action]).toEqual([name, "function", "function"]);
        expect(door.methods.length, name).toBeGreaterThan(0);
      } else {
        expect([name, typeof door.module.loader]).toEqual([name, door.methods.includes("GET") ? "function" : "undefined"]);
        expect([name, typeof door.module.action]).toEqual([name, door.methods.some((m) => m !== "GET") ? "function" : "undefined"]);
      }
    }
  });
});

describe.each(Object.entries(DOORS).filter(([, door]) => methodsCalled(door).length > 0))("%s", (_name, door) => {
  it.each(methodsCalled(door))("%s: nobody, a helper and the family", async (method) => {
    const listed = door.methods.includes(method);

    if (door.who === "public") {
      // The same answer whoever asks, and never the door's.
      const answers = [];
      for (const cookie of [undefined, await logIn(f.helen), await logIn(f.keeper)]) {
        const { response } = await call(door, method, cookie);
        expect(response.status).not.toBe(403);
        if (response.status === 401) expect(await response.clone().json()).not.toEqual(LOG_IN_FIRST);
        answers.push(response.status);
        await response.body?.cancel();
      }
      expect(new Set(answers).size, `${method} ${door.url(f)}: ${answers.join(", ")}`).toBe(1);
      return;
    }

    // Nobody: to the login page (or 401), before any of the body is read, and nothing changes.
    const before = everything();
    const nobody = await call(door, method);
    await expectSentToLogIn(door, nobody.response);
    expect(nobody.read).toBe(false);
    expect(everything()).toEqual(before);

    // A helper.
    const helpers = await logIn(f.helen);
    if (door.who === "family") {
      const untouched = everything();
      const helper = await call(door, method, helpers);
      await expectFamilyOnly(door, helper.response);
      expect(helper.read, "the role is checked before the body is read").toBe(false);
      expect(everything()).toEqual(untouched);
    } else {
      const helper = await call(door, method, helpers);
      await expectPassed(helper.response);
      if (answersEveryMethod(door) && !listed) expect(helper.response.status).toBe(405);
    }

    // The family.
    const family = await call(door, method, await logIn(f.keeper));
    await expectPassed(family.response);
    if (answersEveryMethod(door) && !listed) expect(family.response.status).toBe(405);
  });
});

describe("a family-only form on a helper's page", () => {
  it("the E-mail tab's Try Again: 403 for a helper, and the e-mail stays as it was", async () => {
    const door = { ...DOORS["admin.email"]!, form: () => ({ intent: "retry", id: String(f.unsentMail) }) };
    const before = everything();
    const helper = await call(door, "POST", await logIn(f.helen));
    await expectFamilyOnly(door, helper.response);
    const after = everything();
    // Only her new session differs.
    expect({ ...after.tables, sessions: [] }).toEqual({ ...before.tables, sessions: [] });
    const family = await call(door, "POST", await logIn(f.keeper));
    expect(family.response.status).toBe(302);
    expect(db.select({ failedAt: mailOutbox.failedAt }).from(mailOutbox).get()).toEqual({ failedAt: null });
  });
});
