CREATE TABLE `admin_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password` text NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_users_username_unique` ON `admin_users` (`username`);--> statement-breakpoint
CREATE TABLE `memories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`message` text NOT NULL,
	`canDisplay` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "memories_status_check" CHECK("memories"."status" in ('PENDING', 'APPROVED', 'REJECTED')),
	CONSTRAINT "memories_can_display_check" CHECK("memories"."canDisplay" in (0, 1))
);
--> statement-breakpoint
CREATE INDEX `memories_status_created_idx` ON `memories` (`status`,`createdAt`);--> statement-breakpoint
CREATE INDEX `memories_public_idx` ON `memories` (`status`,`canDisplay`,`createdAt`);--> statement-breakpoint
CREATE TABLE `poems` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`author` text,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `poems_created_idx` ON `poems` (`createdAt`);--> statement-breakpoint
CREATE TABLE `rsvps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`guestCount` integer DEFAULT 1 NOT NULL,
	`notes` text,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "rsvps_guest_count_check" CHECK("rsvps"."guestCount" between 1 and 10)
);
--> statement-breakpoint
CREATE INDEX `rsvps_created_idx` ON `rsvps` (`createdAt`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`sess` text NOT NULL,
	`expire` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_expire_idx` ON `sessions` (`expire`);--> statement-breakpoint
CREATE TABLE `uploads` (
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
	CONSTRAINT "uploads_status_check" CHECK("uploads"."status" in ('PENDING', 'APPROVED', 'REJECTED')),
	CONSTRAINT "uploads_type_check" CHECK("uploads"."type" in ('IMAGE', 'VIDEO'))
);
--> statement-breakpoint
CREATE INDEX `uploads_status_created_idx` ON `uploads` (`status`,`createdAt`);--> statement-breakpoint
CREATE INDEX `uploads_status_type_created_idx` ON `uploads` (`status`,`type`,`createdAt`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY DEFAULT (lower(hex(randomblob(16)))) NOT NULL,
	`email` text,
	`firstName` text,
	`lastName` text,
	`profileImageUrl` text,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updatedAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);