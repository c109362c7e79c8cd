import { unstable_parseMultipartFormData } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { limitMultipartRequest, MultipartScanner, type MultipartLimits } from "~/platform/multipart-limits.server";

const LIMITS: MultipartLimits = {
  maxHeaderBytes: 8 * 1024,
  maxParts: 5,
  maxBodyBytes: 1024 * 1024,
  messages: { header: "header too long", parts: "too many parts", body: "body too large" },
};

async function encode(form: FormData) {
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get("Content-Type")! };
}

const boundaryOf = (contentType: string) => contentType.split("boundary=")[1]!;

/** Feeds the body in chunks of `size` bytes; answers the first refusal's message, or the part count. */
function scan(body: Buffer, boundary: string, size: number, limits = LIMITS) {
  const scanner = new MultipartScanner(boundary, limits);
  for (let at = 0; at < body.length; at += size) {
    const refusal = scanner.feed(body.subarray(at, at + size));
    if (refusal) return { refused: refusal.message, status: refusal.status };
  }
  return { parts: scanner.parts };
}

function rawPart(boundary: string, headerFiller: number) {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\nX-Filler: ${"a".repeat(headerFiller)}\r\n\r\nbytes\r\n--${boundary}--\r\n`,
  );
}

describe("the multipart guard", () => {
  it("follows a form's parts however its bytes are cut", async () => {
    const form = new FormData();
    form.set("name", "Ann");
    form.set("email", "ann@example.com");
    form.append("files", new Blob([new Uint8Array(3000).fill(45)]), "a.jpg");
    form.append("files", new Blob(["--not-the-boundary"]), "b.jpg");
    const { body, contentType } = await encode(form);
    for (const size of [1, 2, 3, 7, 64, body.length]) expect(scan(body, boundaryOf(contentType), size)).toEqual({ parts: 4 });
  });

  it("refuses a part header past its limit, wherever the chunks end", () => {
    expect(scan(rawPart("XyZ", 7 * 1024), "XyZ", 100)).toEqual({ parts: 1 });
    for (const size of [1, 100, 4096, 1 << 20])
      expect(scan(rawPart("XyZ", 9 * 1024), "XyZ", size)).toEqual({ refused: "header too long", status: 413 });
  });

  it("refuses too many parts and too large a body", async () => {
    const form = new FormData();
    for (let i = 0; i < 6; i++) form.append("field", "x");
    const { body, contentType } = await encode(form);
    expect(scan(body, boundaryOf(contentType), 10)).toEqual({ refused: "too many parts", status: 413 });
    expect(scan(Buffer.alloc(2 * 1024 * 1024), "XyZ", 64 * 1024)).toEqual({ refused: "body too large", status: 413 });
  });

  it("passes the bytes on unchanged to Remix's parser", async () => {
    const form = new FormData();
    form.set("name", "Ann");
    form.append("files", new Blob([new Uint8Array(100_000).fill(7)]), "a.jpg");
    const { body, contentType } = await encode(form);
    const request = new Request("http://memorial.test/share", { method: "POST", headers: { "Content-Type": contentType }, body });
    const sizes: Record<string, number> = {};
    const parsed = await unstable_parseMultipartFormData(limitMultipartRequest(request, LIMITS), async ({ name, data }) => {
      let size = 0;
      for await (const chunk of data) size += chunk.byteLength;
      sizes[name] = size;
      return name === "name" ? "read" : undefined;
    });
    expect(sizes).toEqual({ name: 3, files: 100_000 });
    expect(parsed.get("name")).toBe("read");
  });

  it("stops the body at the first refusal, so the parser fails with it", async () => {
    const request = new Request("http://memorial.test/share", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=XyZ" },
      body: rawPart("XyZ", 9 * 1024),
    });
    await expect(unstable_parseMultipartFormData(limitMultipartRequest(request, LIMITS), async () => undefined)).rejects.toMatchObject({
      status: 413,
      message: "header too long",
    });
  });
});
