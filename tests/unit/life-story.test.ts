// The life story: its formatting, the guided draft, and the model, the pages
// and the API called in process over a real (temporary) database.
import { beforeEach, describe, expect, it } from "vitest";
import { lifeMoments, lifeStory, sessions, siteSettings, uploads } from "../../db/schema";
import { resetLoginThrottle } from "~/admins/authenticator.server";
import { upsertAdmin } from "~/admins/admin.server";
import { composeDraft, openingSentence } from "~/life/guided-draft";
import { AnswersInput } from "~/life/life.schema";
import { firstSentence, storyBlocks } from "~/life/story-text";
import { db } from "~/platform/db.server";
import { lifeLine } from "~/site/life-dates";
import { getSiteSettings } from "~/site/settings.server";
import * as login from "~/routes/admin_.login";
import * as adminLife from "~/routes/admin.life";
import * as adminApi from "~/routes/api.admin.life";
import * as publicApi from "~/routes/api.life";
import * as lifePage from "~/routes/life";
import * as home from "~/routes/_index";
import { answer, cookieOf } from "../support/route-calls";

const ORIGIN = "http://localhost";
const ADMIN = { username: "keeper", password: "the-right-password" };
const context = { clientIp: "10.42.0.1" };

describe("the story's formatting", () => {
  it("reads paragraphs, ## headings and - lists, and nothing else as markup", () => {
    const story = "Ann was born in Cork.\nShe loved the sea.\n\n## Work\nShe taught.\n- Maths\n- Music\n\n<b>not bold</b> & more";
    expect(storyBlocks(story)).toEqual([
      { type: "paragraph", lines: ["Ann was born in Cork.", "She loved the sea."] },
      { type: "heading", text: "Work" },
      { type: "paragraph", lines: ["She taught."] },
      { type: "list", items: ["Maths", "Music"] },
      { type: "paragraph", lines: ["<b>not bold</b> & more"] },
    ]);
    expect(storyBlocks("  \n\n ")).toEqual([]);
  });

  it("gives the first sentence of the first paragraph for link previews, cut at a word", () => {
    expect(firstSentence("## Early years\n\nAnn was born in Cork. She loved the sea.")).toBe("Ann was born in Cork.");
    expect(firstSentence("No full stop at all")).toBe("No full stop at all");
    expect(firstSentence("")).toBe("");
    const long = `${"word ".repeat(100)}end.`;
    expect(firstSentence(long, 50)).toMatch(/^(word ){8}word…$/);
  });
});

describe("the guided draft", () => {
  const person = { name: "Ann Lee", born: { date: "1942-03-14", place: "Cork" }, died: { date: "2026", place: "" } };

  it("opens with the dates and places the family gave", () => {
    expect(openingSentence(person)).toBe("Ann Lee was born on March 14, 1942, in Cork, and died in 2026.");
    expect(openingSentence({ ...person, born: { date: "", place: "" } })).toBe("Ann Lee died in 2026.");
    expect(openingSentence({ ...person, born: { date: "", place: "" }, died: { date: "", place: "" } })).toBe("");
  });

  it("puts each answer under its heading, in the family's words, and leaves out what they left empty", () => {
    const answers = AnswersInput.parse({ family: "Married to Tom for 50 years.", survivedBy: "Tom; their children Mia and Joe." });
    expect(composeDraft(person, answers)).toBe(
      [
        "Ann Lee was born on March 14, 1942, in Cork, and died in 2026.",
        "## Family",
        "Married to Tom for 50 years.",
        "## Survived by",
        "Tom; their children Mia and Joe.",
      ].join("\n\n"),
    );
  });

  it("writes the line under the page's title", () => {
    expect(lifeLine({ birthDate: "1942-03", birthPlace: "Cork", deathDate: "2026-01-09", deathPlace: "" })).toBe(
      "Born March 1942, in Cork · Died January 9, 2026",
    );
    expect(lifeLine({ birthDate: "", birthPlace: "", deathDate: "", deathPlace: "" })).toBe("");
  });
});

beforeEach(async () => {
  resetLoginThrottle();
  db.delete(sessions).run();
  db.delete(lifeMoments).run();
  db.delete(lifeStory).run();
  db.delete(siteSettings).run();
  db.delete(uploads).run();
  await upsertAdmin(ADMIN.username, ADMIN.password);
});

async function adminCookie() {
  const response = await answer(() =>
    login.action({
      request: new Request(`${ORIGIN}/admin/login`, { method: "POST", body: new URLSearchParams(ADMIN) }),
      params: {},
      context,
    } as never),
  );
  expect(response.status).toBe(302);
  return cookieOf(response);
}

const put = (body: unknown, cookie?: string) =>
  answer(() =>
    adminApi.action({
      request: new Request(`${ORIGIN}/api/admin/life`, {
        method: "PUT",
        headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
        body: JSON.stringify(body),
      }),
      params: {},
      context,
    } as never),
  );

const postForm = (fields: Record<string, string>, cookie: string) =>
  answer(() =>
    adminLife.action({
      request: new Request(`${ORIGIN}/admin/life`, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(fields) }),
      params: {},
      context,
    } as never),
  );

const publicLife = () => answer(() => publicApi.loader());
const homeRequest = () => ({ request: new Request(`${ORIGIN}/`), params: {}, context });

function publishedPhoto(status: "APPROVED" | "PENDING" = "APPROVED") {
  return db
    .insert(uploads)
    .values({
      type: "IMAGE",
      url: "/media/x/display.jpg",
      thumbnailUrl: "/media/x/thumb.jpg",
      displayKey: "x/display.jpg",
      status,
      width: 800,
      height: 600,
    })
    .returning({ id: uploads.id })
    .all()[0]!.id;
}

describe("GET /api/life and the page", () => {
  it("answers 404 until the family publishes, then the story, the dates and the timeline in order", async () => {
    expect((await publicLife()).status).toBe(404);
    expect((await answer(() => lifePage.loader({ request: new Request(`${ORIGIN}/life`), params: {}, context: {} } as never))).status).toBe(
      404,
    );
    const cookie = await adminCookie();
    const photo = publishedPhoto();
    const saved = await put(
      {
        name: "Ann Lee",
        born: { date: "1942-03-14", place: "Cork" },
        died: { date: "2026", place: "Dublin" },
        story: "Ann was born in Cork. She loved the sea.",
        timeline: [
          { date: "1965-06", title: "Married Tom", text: "In Galway.", photoId: photo },
          { date: "1942-03-14", title: "Born", text: "", photoId: null },
        ],
        published: false,
      },
      cookie,
    );
    expect(saved.status).toBe(200);
    expect((await publicLife()).status).toBe(404);
    expect((await answer(() => home.loader(homeRequest()))) as unknown).toMatchObject({ lifeStory: false, storyOpening: "" });

    expect((await put({ published: true }, cookie)).status).toBe(200);
    const response = await publicLife();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: "Ann Lee",
      born: { date: "1942-03-14", place: "Cork" },
      died: { date: "2026", place: "Dublin" },
      story: "Ann was born in Cork. She loved the sea.",
      photoId: null,
      timeline: [
        { date: "1942-03-14", title: "Born", text: "", photoId: null },
        { date: "1965-06", title: "Married Tom", text: "In Galway.", photoId: photo },
      ],
    });
    expect((await answer(() => home.loader(homeRequest()))) as unknown).toMatchObject({
      lifeStory: true,
      storyOpening: "Ann was born in Cork.",
    });

    // A photo the family takes out of the gallery leaves the life story too.
    db.update(uploads).set({ status: "HIDDEN" }).run();
    const after = (await (await publicLife()).json()) as { timeline: { photoId: number | null }[] };
    expect(after.timeline.map((moment) => moment.photoId)).toEqual([null, null]);
  });
});

describe("PUT /api/admin/life refusals", () => {
  it("asks for a session first", async () => {
    expect((await put({ story: "x" })).status).toBe(401);
  });

  it("answers 400 with each field's message, and changes nothing", async () => {
    const cookie = await adminCookie();
    const pending = publishedPhoto("PENDING");
    const cases: [unknown, Record<string, string[]>][] = [
      [{ born: { date: "1942-13" } }, { born: ["Date of birth must be a year, a month or a day, written 1942, 1942-03 or 1942-03-14"] }],
      [{ born: { date: "1990" }, died: { date: "1980" } }, { died: ["Date of death cannot be before the date of birth"] }],
      [{ timeline: [{ date: "", title: "" }] }, { timeline: ["Date is required", "Title is required"] }],
      [
        { timeline: Array.from({ length: 101 }, () => ({ date: "2000", title: "x" })) },
        { timeline: ["The timeline can have at most 100 moments"] },
      ],
      [{ photoId: pending }, { photoId: ["Choose a photo from the gallery"] }],
      [{ published: "yes" }, { published: ["Published must be true or false"] }],
      [{ story: "x".repeat(30_001) }, { story: ["The life story must be at most 30,000 characters"] }],
      [{ colour: "red" }, { body: ["Unknown field: colour"] }],
    ];
    for (const [body, errors] of cases) {
      const response = await put(body, cookie);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(await response.json()).toEqual({ errors });
    }
    const life = (await (
      await answer(() =>
        adminApi.loader({
          request: new Request(`${ORIGIN}/api/admin/life`, { headers: { Cookie: cookie } }),
          params: {},
          context,
        } as never),
      )
    ).json()) as Record<string, unknown>;
    expect(life).toMatchObject({ story: "", timeline: [], published: false, born: { date: "", place: "" } });
  });
});

describe("the Life Story tab's forms", () => {
  it("writes a draft from the answers without saving the story, then saves, adds moments and publishes", async () => {
    const cookie = await adminCookie();
    const drafted = await postForm(
      {
        intent: "draft",
        birthDate: "1942",
        birthPlace: "Cork",
        deathDate: "",
        deathPlace: "",
        family: "Two brothers.",
        work: "",
        loved: "",
        remembered: "",
        survivedBy: "",
        inLieuOfFlowers: "",
      },
      cookie,
    );
    expect(drafted.status).toBe(200);
    const { draft } = (await drafted.json()) as { draft: string };
    expect(draft).toContain("was born in 1942, in Cork.");
    expect(draft).toContain("## Family\n\nTwo brothers.");
    expect(db.select().from(lifeStory).get()).toMatchObject({ story: "", answers: expect.objectContaining({ family: "Two brothers." }) });

    expect((await postForm({ intent: "save", story: draft, photoId: "" }, cookie)).status).toBe(302);
    expect((await postForm({ intent: "add-moment", date: "1942", title: "Born in Cork", text: "", photoId: "" }, cookie)).status).toBe(302);
    const refused = await postForm({ intent: "add-moment", date: "June 1965", title: "Married", text: "", photoId: "" }, cookie);
    expect(refused.status).toBe(400);
    expect(db.select().from(lifeMoments).all()).toHaveLength(1);
    expect((await publicLife()).status).toBe(404);
    expect((await postForm({ intent: "publish", story: draft, photoId: "" }, cookie)).status).toBe(302);
    expect((await publicLife()).status).toBe(200);
    const firstPublished = db.select().from(lifeStory).get()!.publishedAt;
    expect(firstPublished).toBeInstanceOf(Date);
    // Saving again while published keeps when it was first published.
    expect((await postForm({ intent: "publish", story: `${draft}\n\nMore.`, photoId: "" }, cookie)).status).toBe(302);
    expect(db.select().from(lifeStory).get()!.publishedAt).toEqual(firstPublished);
    expect((await postForm({ intent: "unpublish", story: draft, photoId: "" }, cookie)).status).toBe(302);
    expect((await publicLife()).status).toBe(404);
  });
});

describe("what the Life Story tab's forms keep", () => {
  it("counts a line break the browser sends as CRLF once, and keeps a photo no longer offered", async () => {
    const cookie = await adminCookie();
    const half = "a".repeat(14_500);
    expect((await postForm({ intent: "save", story: `${half}${"\r\n".repeat(700)}${half}`, photoId: "" }, cookie)).status).toBe(302);
    expect(db.select().from(lifeStory).get()!.story).toHaveLength(29_700);

    const photo = publishedPhoto();
    expect(
      (await postForm({ intent: "add-moment", date: "1964", title: "Married", text: "", photoId: String(photo) }, cookie)).status,
    ).toBe(302);
    const [moment] = db.select().from(lifeMoments).all();
    // Taken out of the gallery for now: the form offers "keep", and saving the moment keeps it.
    db.update(uploads).set({ status: "HIDDEN" }).run();
    const fields = { intent: "save-moment", id: String(moment!.id), date: "1964-06", title: "Married Tom", text: "" };
    expect((await postForm({ ...fields, photoId: "keep" }, cookie)).status).toBe(302);
    expect(db.select().from(lifeMoments).get()).toMatchObject({ date: "1964-06", title: "Married Tom", photoId: photo });
    expect((await postForm({ ...fields, photoId: "" }, cookie)).status).toBe(302);
    expect(db.select().from(lifeMoments).get()!.photoId).toBeNull();
  });

  it("clears a date or place emptied in the questions", async () => {
    const cookie = await adminCookie();
    const answers = { family: "", work: "", loved: "", remembered: "", survivedBy: "", inLieuOfFlowers: "" };
    const draft = (person: Record<string, string>) => postForm({ intent: "draft", ...answers, ...person }, cookie);
    expect((await draft({ birthDate: "1942", birthPlace: "Cork", deathDate: "2026", deathPlace: "" })).status).toBe(200);
    expect(getSiteSettings()).toMatchObject({ birthDate: "1942", birthPlace: "Cork", deathDate: "2026" });
    expect((await draft({ birthDate: "", birthPlace: "", deathDate: "2026", deathPlace: "" })).status).toBe(200);
    expect(getSiteSettings()).toMatchObject({ birthDate: "", birthPlace: "", deathDate: "2026" });
  });
});
