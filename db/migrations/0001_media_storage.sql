CREATE TABLE `signed_uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`multipartUploadId` text,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `signed_uploads_created_idx` ON `signed_uploads` (`createdAt`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `storageKey` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `mimeType` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `sizeBytes` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `displayKey` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `thumbnailKey` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `rotation` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `processedAt` integer;