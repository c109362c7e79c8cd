import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signatures for the local-disk driver's upload addresses. The HMAC covers
 * everything that decides where the bytes go and until when, so no part of
 * the address can be changed without the signature failing.
 */
export interface UploadGrant {
  key: string;
  expires: number; // seconds since the epoch
  uploadId?: string;
  partNumber?: number;
}

function payload(grant: UploadGrant) {
  return ["PUT", grant.key, grant.uploadId ?? "", grant.partNumber ?? "", grant.expires].join("\n");
}

function hmac(secret: string, grant: UploadGrant) {
  return createHmac("sha256", `upload-url:${secret}`).update(payload(grant)).digest("base64url");
}

export function signGrant(grant: UploadGrant, secrets: string[]): string {
  return hmac(secrets[0]!, grant);
}

/** True when any of the secrets (newest first, to allow rotation) made this signature. */
function isGrantSigned(grant: UploadGrant, signature: string, secrets: string[]): boolean {
  const given = Buffer.from(signature, "base64url");
  return secrets.some((secret) => {
    const expected = Buffer.from(hmac(secret, grant), "base64url");
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

export function grantSearchParams(grant: UploadGrant, secrets: string[]): URLSearchParams {
  const params = new URLSearchParams();
  if (grant.uploadId !== undefined) params.set("uploadId", grant.uploadId);
  if (grant.partNumber !== undefined) params.set("partNumber", String(grant.partNumber));
  params.set("expires", String(grant.expires));
  params.set("signature", signGrant(grant, secrets));
  return params;
}

export type GrantCheck = { ok: true; grant: UploadGrant } | { ok: false; reason: "invalid" | "expired" };

/** Reads and checks the grant carried by a signed upload address. */
export function readGrant(key: string, params: URLSearchParams, secrets: string[], now = Date.now()): GrantCheck {
  const expires = Number(params.get("expires"));
  const signature = params.get("signature") ?? "";
  const uploadId = params.get("uploadId") ?? undefined;
  const partRaw = params.get("partNumber");
  const partNumber = partRaw === null ? undefined : Number(partRaw);
  if (!Number.isSafeInteger(expires) || !signature) return { ok: false, reason: "invalid" };
  if (partNumber !== undefined && !Number.isSafeInteger(partNumber)) return { ok: false, reason: "invalid" };
  const grant: UploadGrant = { key, expires, uploadId, partNumber };
  if (!isGrantSigned(grant, signature, secrets)) return { ok: false, reason: "invalid" };
  if (expires * 1000 < now) return { ok: false, reason: "expired" };
  return { ok: true, grant };
}
