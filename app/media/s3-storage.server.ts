import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createRequire } from "node:module";
import type * as S3 from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import {
  InvalidPartsError,
  UploadTooLargeError,
  type MediaStorage,
  inlineDisposition,
  type ServeOptions,
  type StoredPart,
} from "./storage.server";

export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Where bytes wait on local disk (a form upload before it goes up, a file being processed). */
  scratchDir?: string;
}

const load = createRequire(import.meta.url);
let sdk: typeof S3 | null = null;
/**
 * The AWS SDK's S3 client, loaded when the bucket is first used rather than
 * at start (about 200 ms of a cold start on one core, 3 s at a shared CPU's
 * baseline: docs/decisions/029-fly-box.md); its CommonJS build loads synchronously.
 */
const s3 = (): typeof S3 => (sdk ??= load("@aws-sdk/client-s3") as typeof S3);
/** The presigner, loaded with the first signed address. */
const getSignedUrl: typeof import("@aws-sdk/s3-request-presigner").getSignedUrl = async (...args) =>
  (await import("@aws-sdk/s3-request-presigner")).getSignedUrl(...args);

/** How long a presigned download redirect stays valid: the bucket itself stays private. */
const DOWNLOAD_URL_SECONDS = 10 * 60;

function isMissing(error: unknown) {
  return (
    error instanceof s3().S3ServiceException &&
    (error.name === "NotFound" || error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Media in an S3-compatible bucket (AWS, Fly's Tigris, MinIO…). Browsers PUT
 * straight to the bucket with presigned addresses and are sent to presigned
 * downloads, so large files never pass through this server.
 */
export class S3Storage implements MediaStorage {
  readonly kind = "s3" as const;
  readonly bucket: string;
  private readonly scratchDir: string;
  private readonly clientConfig: S3.S3ClientConfig;
  private made: S3Client | null = null;

  /** The SDK's client, made at the first use of the bucket. */
  get client(): S3Client {
    return (this.made ??= new (s3().S3Client)(this.clientConfig));
  }

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.scratchDir = settings.scratchDir ?? os.tmpdir();
    const isAws = !settings.endpoint || /\.amazonaws\.com(\/|$)/.test(settings.endpoint);
    this.clientConfig = {
      region: settings.region ?? "auto",
      endpoint: settings.endpoint,
      forcePathStyle: !isAws,
      // Without these the SDK adds a checksum of an empty body to presigned
      // PUT and UploadPart addresses, which S3 then rejects for the real body.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    };
  }

  /** The endpoint's origin, which the page's Content-Security-Policy must allow. */
  static endpointOrigin(settings: Pick<S3Settings, "bucket" | "endpoint" | "region">): string[] {
    if (settings.endpoint) return [new URL(settings.endpoint).origin];
    return [`https://${settings.bucket}.s3.${settings.region ?? "us-east-1"}.amazonaws.com`, "https://*.amazonaws.com"];
  }

  signPutUrl(key: string, _origin: string, expiresInSeconds: number) {
    return getSignedUrl(this.client, new (s3().PutObjectCommand)({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }

  private async scratchFile() {
    await fs.mkdir(this.scratchDir, { recursive: true });
    return path.join(this.scratchDir, `s3-${randomBytes(9).toString("base64url")}`);
  }

  /** Spools the stream to local disk first: S3 needs the length before the bytes. */
  async write(key: string, body: Readable | AsyncIterable<Buffer>, options: { contentType: string; maxBytes: number }) {
    const file = await this.scratchFile();
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > options.maxBytes) throw new UploadTooLargeError(options.maxBytes);
            yield chunk;
          }
        },
        createWriteStream(file),
      );
      await this.client.send(
        new (s3().PutObjectCommand)({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: options.contentType,
        }),
      );
    } finally {
      await fs.rm(file, { force: true });
    }
    return { size };
  }

  async stat(key: string) {
    try {
      const head = await this.client.send(new (s3().HeadObjectCommand)({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async readHead(key: string, length: number) {
    const object = await this.client.send(new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: key, Range: `bytes=0-${length - 1}` }));
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async read(key: string) {
    const object = await this.client.send(new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: key }));
    // In Node the SDK's body is the HTTP response itself: destroying it closes the connection.
    return object.Body as Readable;
  }

  async withLocalFile<T>(key: string, fn: (file: string) => Promise<T>) {
    const file = await this.scratchFile();
    try {
      const object = await this.client.send(new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: key }));
      await pipeline(object.Body as Readable, createWriteStream(file));
      return await fn(file);
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  async delete(key: string) {
    await this.client.send(new (s3().DeleteObjectCommand)({ Bucket: this.bucket, Key: key }));
  }

  /** A bucket has no size we can see: only the pending-bytes budget applies. */
  async freeBytes() {
    return null;
  }

  async serve(key: string, _request: Request, options: ServeOptions) {
    const url = await getSignedUrl(
      this.client,
      new (s3().GetObjectCommand)({
        Bucket: this.bucket,
        Key: key,
        ResponseContentType: options.contentType,
        ResponseCacheControl: options.cacheControl,
        ResponseContentDisposition: options.downloadName ? inlineDisposition(options.downloadName) : undefined,
      }),
      { expiresIn: DOWNLOAD_URL_SECONDS },
    );
    // The redirect itself may be reused only briefly, well inside the signature's life.
    return new Response(null, { status: 302, headers: { Location: url, "Cache-Control": "private, max-age=300" } });
  }

  async createMultipartUpload(key: string, contentType: string) {
    const result = await this.client.send(
      new (s3().CreateMultipartUploadCommand)({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    return result.UploadId!;
  }

  signPartUrl(key: string, uploadId: string, partNumber: number, _origin: string, expiresInSeconds: number) {
    return getSignedUrl(
      this.client,
      new (s3().UploadPartCommand)({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }),
      {
        expiresIn: expiresInSeconds,
      },
    );
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    do {
      const page = await this.client.send(
        new (s3().ListPartsCommand)({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }),
      );
      for (const part of page.Parts ?? []) parts.push({ PartNumber: part.PartNumber!, Size: part.Size ?? 0, ETag: part.ETag ?? "" });
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    return parts;
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]) {
    try {
      await this.client.send(
        new (s3().CompleteMultipartUploadCommand)({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })) },
        }),
      );
    } catch (error) {
      if (
        error instanceof s3().S3ServiceException &&
        ["InvalidPart", "InvalidPartOrder", "NoSuchUpload", "EntityTooSmall"].includes(error.name)
      ) {
        throw new InvalidPartsError(error.message);
      }
      throw error;
    }
  }

  async abortMultipartUpload(key: string, uploadId: string) {
    try {
      await this.client.send(new (s3().AbortMultipartUploadCommand)({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (!isMissing(error) && !(error instanceof s3().S3ServiceException && error.name === "NoSuchUpload")) throw error;
    }
  }
}
