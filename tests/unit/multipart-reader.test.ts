// The one multipart reader (app/platform/multipart.server.ts): what a form gives
// back, every limit it keeps, and what is left behind when it refuses. Real
// requests, encoded as a browser encodes them; the sink keeps files in memory
// here (the models' sinks write to storage or scratch space).
import { afterEach, describe, expect, it, vi } from "vitest";
import { startBodyClock } from "~/platform/http.server";
import { FormRefused, readMultipartForm, type FileSink, type MultipartFormLimits } from "~/platform/multipart.server";
import { Refusal } from "~/platform/refusal.server";

const ORIGIN = "http://memorial.test";

const LIMITS: MultipartFormLimits = {
  maxBodyBytes: 64 * 1024,
  maxParts: 8,
  maxHeaderBytes: 1024,
  fields: ["name", "email"],
  maxFieldBytes: 100,
  fileField: "files",
  maxFiles: 2,
  maxFileBytes: 10_000,
  oversizedFile: { refuse: "That file is too large." },
  messages: {
    notAForm: "Please use the form.",
    lengthRequired: "Say how large the form is.",
    tooLarge: "The form is too large.",
    header: "A part's header is too long.",
    parts: "The form has too many parts.",
    fieldTooLong: "That text is too long.",
    slow: "The form took too long.",
  },
};

afterEach(() => {
  vi.useRealTimers();
});

/** A sink keeping each file's bytes in memory, numbered 1, 2, …; `seen` counts bytes as they come. */
function memorySink() {
  const kept = new Map<number, Buffer>();
  const progress = { seen: 0, opened: [] as number[], discarded: [] as number[], written: 0 };
  const sink: FileSink<number> = {
    async open(bytes) {
      progress.opened.push(bytes);
    },
    async write({ data }) {
      const id = ++progress.written;
      const chunks: Buffer[] = [];
      for await (const chunk of data) {
        progress.seen += chunk.byteLength;
        chunks.push(chunk);
      }
      kept.set(id, Buffer.concat(chunks));
      return id;
    },
    async discard(id) {
      progress.discarded.push(id);
      kept.delete(id);
    },
  };
  return { sink, kept, progress };
}

type Entry = [name: string, value: string | { bytes: Buffer; filename: string; type?: string }];

/** The body and Content-Type a browser sends for these entries. */
async function encode(entries: Entry[]) {
  const form = new FormData();
  for (const [name, value] of entries) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type ?? "application/octet-stream" }), value.filename);
  }
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("Content-Type")! };
}

function requestOf(body: Buffer | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new Request(`${ORIGIN}/form`, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** The form as a browser sends it; with `chunkBytes`, its body comes in pieces of that size, as from a network. */
async function formRequest(entries: Entry[], chunkBytes?: number) {
  const { body, contentType } = await encode(entries);
  const headers = { "Content-Type": contentType, "Content-Length": String(body.length) };
  if (!chunkBytes) return requestOf(body, headers);
  let at = 0;
  const pieces = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(new Uint8Array(body.subarray(at, (at += chunkBytes))));
    },
  });
  return requestOf(pieces, headers);
}

/** A request for this encoded form whose body arrives when the test sends it. */
function heldRequest({ body, contentType }: { body: Buffer; contentType: string }) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    request: requestOf(stream, { "Content-Type": contentType, "Content-Length": String(body.length) }),
    send: (bytes: Buffer) => controller.enqueue(new Uint8Array(bytes)),
    end: () => controller.close(),
  };
}

const bytes = (length: number, fill = 7) => Buffer.alloc(length, fill);

/** The refusal the reader threw (failing the test when it gave a form). */
async function refusalOf(reading: Promise<unknown>) {
  const error = await reading.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FormRefused);
  const refusal = error as FormRefused;
  return { status: refusal.status, message: refusal.message, fields: refusal.fields };
}

function settled<T>(promise: Promise<T>) {
  const state = { done: false };
  promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
}

describe("the multipart reader", () => {
  it("gives the fields kept and the files' handles; every other part is read and dropped", async () => {
    const photo = bytes(3000, 1);
    const drawing = bytes(500, 2);
    const request = await formRequest([
      ["name", "Ann"],
      ["name", "Not Ann"],
      ["website", "spam"],
      ["files", { bytes: photo, filename: "lake.jpg", type: "image/jpeg" }],
      ["other", { bytes: bytes(100), filename: "other.bin" }],
      ["files", { bytes: Buffer.alloc(0), filename: "" }],
      ["files", { bytes: drawing, filename: "drawing.png", type: "image/png" }],
    ]);
    const { sink, kept, progress } = memorySink();
    const form = await readMultipartForm(request, LIMITS, sink);
    expect(form).toEqual({
      fields: { name: "Ann" },
      files: [
        { stored: 1, filename: "lake.jpg", contentType: "image/jpeg", size: 3000 },
        { stored: 2, filename: "drawing.png", contentType: "image/png", size: 500 },
      ],
      filesLeftOut: 0,
      oversized: [],
    });
    expect(kept.get(1)).toEqual(photo);
    expect(kept.get(2)).toEqual(drawing);
    // The sink was told the most the body can hold before any of it was read.
    expect(progress.opened).toEqual([Number(request.headers.get("Content-Length"))]);
  });

  it("streams a file to its sink as it arrives, before the rest of the body is sent", async () => {
    const video = bytes(40_000, 3);
    const encoded = await encode([
      ["name", "Ann"],
      ["files", { bytes: video, filename: "party.mov", type: "video/quicktime" }],
    ]);
    const { body } = encoded;
    const held = heldRequest(encoded);
    const { sink, kept, progress } = memorySink();
    const reading = readMultipartForm(held.request, { ...LIMITS, maxFileBytes: 50_000 }, sink);
    const state = settled(reading);
    held.send(body.subarray(0, 20_000));
    for (let wait = 0; wait < 100 && progress.seen === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(progress.seen).toBeGreaterThan(0);
    expect(progress.seen).toBeLessThan(video.length);
    expect(state.done).toBe(false);
    held.send(body.subarray(20_000));
    held.end();
    const form = await reading;
    expect(form.files).toEqual([{ stored: 1, filename: "party.mov", contentType: "video/quicktime", size: video.length }]);
    expect(kept.get(1)).toEqual(video);
  });

  it("refuses another type of body (415), one without its length when it must give it (411), or declaring too much (413), without opening the sink", async () => {
    const { body, contentType } = await encode([["name", "Ann"]]);
    const cases: [Record<string, string>, number, string][] = [
      [{ "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "8" }, 415, "Please use the form."],
      [{ "Content-Type": contentType }, 411, "Say how large the form is."],
      [{ "Content-Type": contentType, "Content-Length": String(LIMITS.maxBodyBytes + 1) }, 413, "The form is too large."],
    ];
    for (const [headers, status, message] of cases) {
      const { sink, progress } = memorySink();
      expect(await refusalOf(readMultipartForm(requestOf(body, headers), LIMITS, sink))).toEqual({ status, message, fields: {} });
      expect(progress.opened).toEqual([]);
    }
    // Without a length asked for, the body is read within the limits, and the sink is told the most it may hold.
    const { sink, progress } = memorySink();
    const { lengthRequired: _, ...messages } = LIMITS.messages;
    const form = await readMultipartForm(requestOf(body, { "Content-Type": contentType }), { ...LIMITS, messages }, sink);
    expect(form.fields).toEqual({ name: "Ann" });
    expect(progress.opened).toEqual([LIMITS.maxBodyBytes]);
  });

  it("refuses a body past its size as it arrives, though it declared less", async () => {
    const { body, contentType } = await encode([["files", { bytes: bytes(70 * 1024), filename: "big.jpg" }]]);
    const { sink, kept } = memorySink();
    const reading = readMultipartForm(
      requestOf(body, { "Content-Type": contentType, "Content-Length": "1000" }),
      { ...LIMITS, maxFileBytes: 1e6 },
      sink,
    );
    expect(await refusalOf(reading)).toMatchObject({ status: 413, message: "The form is too large." });
    expect(kept.size).toBe(0);
  });

  it("refuses too many parts (413) and discards the files stored before", async () => {
    const request = await formRequest(
      [
        ["files", { bytes: bytes(200), filename: "kept.jpg" }],
        ["name", "Ann"],
        ...Array.from({ length: 7 }, (_, i): Entry => [`extra${i}`, "x"]),
      ],
      256,
    );
    const { sink, kept, progress } = memorySink();
    expect(await refusalOf(readMultipartForm(request, LIMITS, sink))).toEqual({
      status: 413,
      message: "The form has too many parts.",
      fields: { name: "Ann" },
    });
    expect(progress.written).toBe(1);
    expect(progress.discarded).toEqual([1]);
    expect(kept.size).toBe(0);
  });

  it("refuses a part header past its size", async () => {
    const { sink } = memorySink();
    const request = await formRequest([["files", { bytes: bytes(10), filename: `${"long".repeat(300)}.jpg` }]]);
    expect(await refusalOf(readMultipartForm(request, LIMITS, sink))).toMatchObject({
      status: 413,
      message: "A part's header is too long.",
    });
  });

  it("refuses a field past its size, giving back the fields read before it", async () => {
    const request = await formRequest([
      ["name", "Ann"],
      ["email", `${"a".repeat(95)}@example.com`],
    ]);
    expect(await refusalOf(readMultipartForm(request, LIMITS, memorySink().sink))).toEqual({
      status: 413,
      message: "That text is too long.",
      fields: { name: "Ann" },
    });
    // A field not kept may be as long as the body allows: it is read and dropped.
    const dropped = await formRequest([["notes", "n".repeat(10_000)]]);
    expect((await readMultipartForm(dropped, LIMITS, memorySink().sink)).fields).toEqual({});
  });

  it("refuses a file past its size, leaving nothing stored", async () => {
    const request = await formRequest([
      ["files", { bytes: bytes(1000), filename: "small.jpg" }],
      ["files", { bytes: bytes(LIMITS.maxFileBytes + 1), filename: "large.jpg" }],
    ]);
    const { sink, kept, progress } = memorySink();
    expect(await refusalOf(readMultipartForm(request, LIMITS, sink))).toEqual({
      status: 413,
      message: "That file is too large.",
      fields: {},
    });
    expect(progress.discarded).toEqual([1]);
    expect(kept.size).toBe(0);
    // A file of exactly the limit is taken.
    const exact = await formRequest([["files", { bytes: bytes(LIMITS.maxFileBytes), filename: "exact.jpg" }]]);
    expect((await readMultipartForm(exact, LIMITS, memorySink().sink)).files).toMatchObject([{ size: LIMITS.maxFileBytes }]);
  });

  it("leaves out a file past its size when the form says so, names it, and reads on", async () => {
    const request = await formRequest([
      ["files", { bytes: bytes(1000, 1), filename: "a.jpg" }],
      ["files", { bytes: bytes(LIMITS.maxFileBytes + 1), filename: "long.mov" }],
      ["files", { bytes: bytes(2000, 3), filename: "c.jpg" }],
      ["files", { bytes: bytes(10), filename: "d.jpg" }],
      ["name", "Ann"],
    ]);
    const { sink, kept, progress } = memorySink();
    const form = await readMultipartForm(request, { ...LIMITS, maxFiles: 3, oversizedFile: "leave out" }, sink);
    expect(form.files.map((file) => [file.stored, file.filename, file.size])).toEqual([
      [1, "a.jpg", 1000],
      [3, "c.jpg", 2000],
    ]);
    expect(form.oversized).toEqual(["long.mov"]);
    // The file left out still counts among the three the form may hold.
    expect(form.filesLeftOut).toBe(1);
    expect(form.fields).toEqual({ name: "Ann" });
    expect(progress.discarded).toEqual([2]);
    expect([...kept.keys()]).toEqual([1, 3]);
  });

  it("reads and counts the files past the most it keeps, without storing them", async () => {
    const request = await formRequest([
      ["files", { bytes: bytes(10), filename: "1.jpg" }],
      ["files", { bytes: bytes(10), filename: "2.jpg" }],
      ["files", { bytes: bytes(10), filename: "3.jpg" }],
      ["files", { bytes: bytes(10), filename: "4.jpg" }],
    ]);
    const { sink, kept } = memorySink();
    const form = await readMultipartForm(request, LIMITS, sink);
    expect(form.files.map((file) => file.filename)).toEqual(["1.jpg", "2.jpg"]);
    expect(form.filesLeftOut).toBe(2);
    expect(kept.size).toBe(2);
  });

  it("answers 400 for a body cut short, and discards the files stored before", async () => {
    const encoded = await encode([
      ["name", "Ann"],
      ["files", { bytes: bytes(3000, 1), filename: "whole.jpg" }],
      ["files", { bytes: bytes(3000, 2), filename: "cut.jpg" }],
    ]);
    const { body } = encoded;
    const held = heldRequest(encoded);
    const { sink, kept, progress } = memorySink();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const reading = readMultipartForm(held.request, LIMITS, sink);
    held.send(body.subarray(0, body.length - 1500));
    held.end();
    expect(await refusalOf(reading)).toEqual({
      status: 400,
      message: "The upload was interrupted before it finished. Please try again.",
      fields: { name: "Ann" },
    });
    expect(progress.discarded).toEqual([1]);
    expect(kept.size).toBe(0);
  });

  it("answers 408 when an admin's body has not arrived by its deadline; a visitor's has none", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const encoded = await encode([
      ["name", "Ann"],
      ["files", { bytes: bytes(8000), filename: "slow.jpg" }],
    ]);
    const { body } = encoded;
    // 30 s, and the body's limit (64 KB) at 256 kbit/s: 2 s more.
    const deadline = 32_000;

    const admin = heldRequest(encoded);
    startBodyClock(admin.request);
    const { sink, kept } = memorySink();
    const reading = readMultipartForm(admin.request, LIMITS, sink);
    const state = settled(reading);
    admin.send(body.subarray(0, 4000));
    await vi.advanceTimersByTimeAsync(deadline - 1);
    expect(state.done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(await refusalOf(reading)).toEqual({ status: 408, message: "The form took too long.", fields: { name: "Ann" } });
    expect(kept.size).toBe(0);

    const visitor = heldRequest(encoded);
    const visitorReading = readMultipartForm(visitor.request, LIMITS, memorySink().sink);
    const visitorState = settled(visitorReading);
    visitor.send(body.subarray(0, 4000));
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    expect(visitorState.done).toBe(false);
    visitor.send(body.subarray(4000));
    visitor.end();
    expect((await visitorReading).files).toMatchObject([{ filename: "slow.jpg", size: 8000 }]);
  });

  it("puts the sink's own refusal (no room) before any byte is read; a fault of the sink's is thrown as it is", async () => {
    const request = await formRequest([["files", { bytes: bytes(10), filename: "a.jpg" }]]);
    const { sink, progress } = memorySink();
    const full: FileSink<number> = {
      ...sink,
      open: async () => {
        throw new Refusal(507, "file", "The disk is full.", 60);
      },
    };
    const error = await readMultipartForm(request, LIMITS, full).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FormRefused);
    expect((error as FormRefused).headers).toEqual({ "Retry-After": "60" });
    expect(await refusalOf(Promise.reject(error))).toEqual({ status: 507, message: "The disk is full.", fields: {} });
    expect(progress.written).toBe(0);

    const broken: FileSink<number> = {
      ...sink,
      open: async () => {
        throw new TypeError("a bug");
      },
    };
    const fault = await readMultipartForm(await formRequest([["name", "Ann"]]), LIMITS, broken).catch((thrown: unknown) => thrown);
    expect(fault).toBeInstanceOf(TypeError);
  });
});
