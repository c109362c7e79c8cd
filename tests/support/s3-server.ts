// An S3-compatible server (s3rver) on loopback with one empty bucket, and
// the site's S3 driver pointed at it: the real driver, no mocks.
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no type declarations.
import S3rver from "s3rver";
import { S3Storage } from "~/media/s3-storage.server";

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

export interface S3Server {
  storage: S3Storage;
  bucket: string;
  /** Stops the server and removes its files. */
  stop: () => Promise<void>;
}

export async function startS3Server(bucket = "memorial-test"): Promise<S3Server> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "memorial-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(dir, "buckets"),
    configureBuckets: [{ name: bucket }],
  }) as S3rverServer;
  const { port } = await server.run();
  const storage = new S3Storage({
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    scratchDir: path.join(dir, "scratch"),
  });
  return {
    storage,
    bucket,
    async stop() {
      storage.client.destroy();
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
