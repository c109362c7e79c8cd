-- Voice memories (issue 45): an upload may be AUDIO beside IMAGE and VIDEO,
-- with the line its sender typed (caption) and the guest book's permission to
-- show it (canDisplay). SQLite cannot change a CHECK in place, so the table is
-- rebuilt: ids and the AUTOINCREMENT sequence are kept (no id is ever handed
-- out twice). The life story's photo references survive because the migrator
-- runs with foreign keys off (db/client.server.ts): a DROP with them on would
-- set each photoId to null first.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_uploads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`submittedBy` text,
	`type` text NOT NULL,
	`originalName` text,
	`url` text NOT NULL,
	`thumbnailUrl` text,
	`width` integer,
	`height` integer,
	`durationSec` integer,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`storageKey` text,
	`mimeType` text,
	`sizeBytes` integer,
	`displayKey` text,
	`thumbnailKey` text,
	`rotation` integer DEFAULT 0 NOT NULL,
	`processedAt` integer,
	`processingError` text,
	`webVideo` text,
	`moderatedBy` text,
	`moderatedAt` integer,
	`setAside` integer DEFAULT false NOT NULL,
	`notifyWhenPublished` integer DEFAULT false NOT NULL,
	`publishedNoticeAt` integer,
	`caption` text,
	`canDisplay` integer DEFAULT true NOT NULL,
	CONSTRAINT "uploads_status_check" CHECK("__new_uploads"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'HIDDEN')),
	CONSTRAINT "uploads_type_check" CHECK("__new_uploads"."type" in ('IMAGE', 'VIDEO', 'AUDIO')),
	CONSTRAINT "uploads_can_display_check" CHECK("__new_uploads"."canDisplay" in (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_uploads`("id", "submittedBy", "type", "originalName", "url", "thumbnailUrl", "width", "height", "durationSec", "status", "createdAt", "storageKey", "mimeType", "sizeBytes", "displayKey", "thumbnailKey", "rotation", "processedAt", "processingError", "webVideo", "moderatedBy", "moderatedAt", "setAside", "notifyWhenPublished", "publishedNoticeAt") SELECT "id", "submittedBy", "type", "originalName", "url", "thumbnailUrl", "width", "height", "durationSec", "status", "createdAt", "storageKey", "mimeType", "sizeBytes", "displayKey", "thumbnailKey", "rotation", "processedAt", "processingError", "webVideo", "moderatedBy", "moderatedAt", "setAside", "notifyWhenPublished", "publishedNoticeAt" FROM `uploads`;--> statement-breakpoint
DELETE FROM `sqlite_sequence` WHERE "name" = '__new_uploads';--> statement-breakpoint
INSERT INTO `sqlite_sequence`("name", "seq") SELECT '__new_uploads', "seq" FROM `sqlite_sequence` WHERE "name" = 'uploads';--> statement-breakpoint
DROP TABLE `uploads`;--> statement-breakpoint
ALTER TABLE `__new_uploads` RENAME TO `uploads`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `uploads_status_created_idx` ON `uploads` (`status`,`createdAt`);--> statement-breakpoint
CREATE INDEX `uploads_status_type_created_idx` ON `uploads` (`status`,`type`,`createdAt`);