import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  mediaSourcesFromEnv,
  createNonce,
  isCrossOriginMutation,
  requestSourceOrigin,
  securityHeaders,
  securityHeadersFor,
} from "../../server/security.mjs";

const HOST = "memorial.example";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = "", ...values] = d.split(/\s+/);
        return [name, values] as const;
      }),
  );
}

describe("cross-origin form posts", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE", "post"])("refuses a %s whose Origin is another site", (method) => {
    expect(isCrossOriginMutation({ method, host: HOST, protocol: "https", origin: "https://evil.example" })).toBe(true);
  });

  it("refuses a POST without Origin whose Referer is another site", () => {
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https", referer: "https://evil.example/page?x=1" })).toBe(true);
  });

  it("refuses a POST with Origin: null (sandboxed or privacy-stripped pages)", () => {
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https", origin: "null" })).toBe(true);
  });

  it("accepts Origin: null only for the unsubscribe button, whose token is the proof, and still refuses another site there", () => {
    const token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
    const post = (path: string, origin: string) => isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https", path, origin });
    expect(post(`/unsubscribe/${token}`, "null")).toBe(false);
    expect(post(`/unsubscribe/${token}`, "https://evil.example")).toBe(true);
    // Dot segments and escapes that the router would read as another page get no exception.
    for (const path of [
      "/unsubscribe/..",
      "/unsubscribe/%2e%2e",
      `/unsubscribe/${token}/..`,
      "/admin/login",
      "/guestbook",
      "/unsubscribe/",
    ]) {
      expect(post(path, "null"), path).toBe(true);
    }
  });

  it("refuses a POST from the same host name on a different port", () => {
    expect(isCrossOriginMutation({ method: "POST", host: "localhost:3000", protocol: "http", origin: "http://localhost:4000" })).toBe(true);
  });

  it("trusts Origin over Referer", () => {
    expect(
      isCrossOriginMutation({
        method: "POST",
        host: HOST,
        protocol: "https",
        origin: "https://evil.example",
        referer: `https://${HOST}/guestbook`,
      }),
    ).toBe(true);
  });

  it("allows a POST from the site itself, ignoring letter case and keeping the port", () => {
    expect(isCrossOriginMutation({ method: "POST", host: "Memorial.Example", protocol: "https", origin: "https://MEMORIAL.example" })).toBe(
      false,
    );
    expect(isCrossOriginMutation({ method: "POST", host: "localhost:3000", protocol: "http", origin: "http://localhost:3000" })).toBe(
      false,
    );
    expect(isCrossOriginMutation({ method: "DELETE", host: HOST, protocol: "https", referer: `https://${HOST}/admin?tab=poems` })).toBe(
      false,
    );
  });

  it.each(["GET", "HEAD", "OPTIONS", "get"])("lets a %s through from anywhere", (method) => {
    expect(isCrossOriginMutation({ method, host: HOST, protocol: "https", origin: "https://evil.example" })).toBe(false);
    expect(isCrossOriginMutation({ method, host: HOST, protocol: "https", origin: "null" })).toBe(false);
  });

  it("lets through a POST that names no origin at all, as curl sends", () => {
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https" })).toBe(false);
  });

  it("refuses a POST from the same host under the other scheme", () => {
    // An https site receiving a form from a plain-http page (a network that can rewrite http can write that page).
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https", origin: `http://${HOST}` })).toBe(true);
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https", referer: `http://${HOST}/guestbook` })).toBe(true);
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "http", origin: `https://${HOST}` })).toBe(true);
    expect(isCrossOriginMutation({ method: "POST", host: "localhost:3000", protocol: "https", origin: "http://localhost:3000" })).toBe(
      true,
    );
  });

  it("reads the site's own scheme as Express gives it, with or without the colon, and ignores default ports", () => {
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https:", origin: `https://${HOST}` })).toBe(false);
    expect(isCrossOriginMutation({ method: "POST", host: `${HOST}:443`, protocol: "https", origin: `https://${HOST}` })).toBe(false);
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "http", origin: `http://${HOST}:80` })).toBe(false);
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "https", origin: `https://${HOST}:8443` })).toBe(true);
  });

  it("refuses a state change when the site's own address cannot be read", () => {
    expect(isCrossOriginMutation({ method: "POST", host: undefined, protocol: "https", origin: `https://${HOST}` })).toBe(true);
    expect(isCrossOriginMutation({ method: "POST", host: "bad host", protocol: "https", origin: "https://bad host" })).toBe(true);
    expect(isCrossOriginMutation({ method: "POST", host: HOST, protocol: "ftp", origin: `ftp://${HOST}` })).toBe(true);
  });

  it("reads the source origin from Origin, then Referer", () => {
    expect(requestSourceOrigin({ origin: "https://A.Example:8443" })).toBe("https://a.example:8443");
    expect(requestSourceOrigin({ referer: "https://b.example/path?q=1" })).toBe("https://b.example");
    expect(requestSourceOrigin({ referer: "HTTP://b.example:80/" })).toBe("http://b.example");
    expect(requestSourceOrigin({})).toBeNull();
    expect(requestSourceOrigin({ origin: "null" })).toBe("invalid");
    expect(requestSourceOrigin({ origin: "not a url" })).toBe("invalid");
  });
});

describe("content security policy", () => {
  it("allows inline scripts only with this response's nonce", () => {
    const policy = directives(contentSecurityPolicy("abc123=="));
    const scriptSrc = policy.get("script-src");
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).toContain("'nonce-abc123=='");
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
  });

  it("allows a cached page's inline scripts by their hashes alone, never inline scripts in general", () => {
    const policy = directives(contentSecurityPolicy(null, { scriptHashes: ["'sha256-abc='", "'sha256-def='"] }));
    expect(policy.get("script-src")).toEqual(["'self'", "'sha256-abc='", "'sha256-def='"]);
    expect(directives(contentSecurityPolicy(null)).get("script-src")).toEqual(["'self'"]);
  });

  it("forbids framing the site and plugin objects", () => {
    const policy = directives(contentSecurityPolicy("n"));
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
  });

  it("allows a media bucket for uploads, images and video, and the dev websocket, only when asked", () => {
    const plain = directives(contentSecurityPolicy("n"));
    expect(plain.get("connect-src")).toEqual(["'self'"]);
    expect(plain.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    const withBucket = directives(contentSecurityPolicy("n", { development: true, mediaSources: ["https://bucket.example"] }));
    expect(withBucket.get("connect-src")).toEqual(["'self'", "https://bucket.example", "ws://localhost:*"]);
    expect(withBucket.get("img-src")).toEqual(["'self'", "data:", "blob:", "https://bucket.example"]);
    expect(withBucket.get("media-src")).toEqual(["'self'", "blob:", "https://bucket.example"]);
  });

  it("reads the bucket's origins from the S3 settings", () => {
    expect(mediaSourcesFromEnv({})).toEqual([]);
    expect(mediaSourcesFromEnv({ AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev" })).toEqual([]);
    expect(mediaSourcesFromEnv({ BUCKET_NAME: "b", AWS_ENDPOINT_URL_S3: "https://fly.storage.tigris.dev" })).toEqual([
      "https://fly.storage.tigris.dev",
      "https://*.fly.storage.tigris.dev",
    ]);
    expect(mediaSourcesFromEnv({ BUCKET_NAME: "b" })).toEqual(["https://*.amazonaws.com"]);
  });

  it("makes a fresh nonce each time", () => {
    const a = createNonce();
    const b = createNonce();
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64")).toHaveLength(16);
  });

  it("never gives the same nonce twice, across many refills of its random bytes", () => {
    const nonces = Array.from({ length: 2000 }, () => createNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64").toString("base64")).toBe(nonce);
    expect(nonces.every((nonce) => Buffer.from(nonce, "base64").length === 16)).toBe(true);
  });
});

describe("security headers", () => {
  it("stops content sniffing and limits the referrer", () => {
    const headers = securityHeaders("n");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBeTruthy();
    expect(headers["Referrer-Policy"]).not.toBe("unsafe-url");
    expect(headers["Content-Security-Policy"]).toContain("'nonce-n'");
  });

  it("are the same when worked out once for many nonces", () => {
    const options = [{}, { production: true }, { development: true, mediaSources: ["https://bucket.example", "https://*.bucket.example"] }];
    for (const option of options) {
      const withNonce = securityHeadersFor(option);
      for (const nonce of ["abc123==", createNonce(), createNonce()]) {
        expect(Object.fromEntries(withNonce(nonce))).toEqual(securityHeaders(nonce, option));
      }
    }
  });

  it("sends HSTS only in production", () => {
    expect(securityHeaders("n")["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders("n", { production: false })["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders("n", { production: true })["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
  });
});
