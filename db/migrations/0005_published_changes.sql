PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_memories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`message` text NOT NULL,
	`canDisplay` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`moderatedBy` text,
	`moderatedAt` integer,
	`originalName` text,
	`originalMessage` text,
	`editedBy` text,
	`editedAt` integer,
	CONSTRAINT "memories_status_check" CHECK("__new_memories"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'HIDDEN')),
	CONSTRAINT "memories_can_display_check" CHECK("__new_memories"."canDisplay" in (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_memories`("id", "name", "email", "phone", "message", "canDisplay", "status", "createdAt", "moderatedBy", "moderatedAt") SELECT "id", "name", "email", "phone", "message", "canDisplay", "status", "createdAt", "moderatedBy", "moderatedAt" FROM `memories`;--> statement-breakpoint
DELETE FROM `sqlite_sequence` WHERE "name" = '__new_memories';--> statement-breakpoint
INSERT INTO `sqlite_sequence`("name", "seq") SELECT '__new_memories', "seq" FROM `sqlite_sequence` WHERE "name" = 'memories';--> statement-breakpoint
DROP TABLE `memories`;--> statement-breakpoint
ALTER TABLE `__new_memories` RENAME TO `memories`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `memories_status_created_idx` ON `memories` (`status`,`createdAt`);--> statement-breakpoint
CREATE INDEX `memories_public_idx` ON `memories` (`status`,`canDisplay`,`createdAt`);--> statement-breakpoint
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
	CONSTRAINT "uploads_status_check" CHECK("__new_uploads"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'HIDDEN')),
	CONSTRAINT "uploads_type_check" CHECK("__new_uploads"."type" in ('IMAGE', 'VIDEO'))
);
--> statement-breakpoint
INSERT INTO `__new_uploads`("id", "submittedBy", "type", "originalName", "url", "thumbnailUrl", "width", "height", "durationSec", "status", "createdAt", "storageKey", "mimeType", "sizeBytes", "displayKey", "thumbnailKey", "rotation", "processedAt", "processingError", "webVideo", "moderatedBy", "moderatedAt") SELECT "id", "submittedBy", "type", "originalName", "url", "thumbnailUrl", "width", "height", "durationSec", "status", "createdAt", "storageKey", "mimeType", "sizeBytes", "displayKey", "thumbnailKey", "rotation", "processedAt", "processingError", "webVideo", "moderatedBy", "moderatedAt" FROM `uploads`;--> statement-breakpoint
DELETE FROM `sqlite_sequence` WHERE "name" = '__new_uploads';--> statement-breakpoint
INSERT INTO `sqlite_sequence`("name", "seq") SELECT '__new_uploads', "seq" FROM `sqlite_sequence` WHERE "name" = 'uploads';--> statement-breakpoint
DROP TABLE `uploads`;--> statement-breakpoint
ALTER TABLE `__new_uploads` RENAME TO `uploads`;--> statement-breakpoint
CREATE INDEX `uploads_status_created_idx` ON `uploads` (`status`,`createdAt`);--> statement-breakpoint
CREATE INDEX `uploads_status_type_created_idx` ON `uploads` (`status`,`type`,`createdAt`);