CREATE TABLE `admin_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tokenHash` text NOT NULL,
	`createdBy` text,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expiresAt` integer NOT NULL,
	`usedAt` integer,
	`usedBy` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_invitations_tokenHash_unique` ON `admin_invitations` (`tokenHash`);--> statement-breakpoint
CREATE INDEX `admin_invitations_expires_idx` ON `admin_invitations` (`expiresAt`);--> statement-breakpoint
CREATE TABLE `site_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updatedAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updatedBy` text
);
--> statement-breakpoint
ALTER TABLE `memories` ADD `moderatedBy` text;--> statement-breakpoint
ALTER TABLE `memories` ADD `moderatedAt` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `moderatedBy` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `moderatedAt` integer;