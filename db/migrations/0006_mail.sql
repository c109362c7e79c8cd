CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`text` text,
	`html` text,
	`attachments` text,
	`messageId` text NOT NULL,
	`unsubscribeUrl` text,
	`dedupeKey` text,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`nextAttemptAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`claimedUntil` integer,
	`sentAt` integer,
	`failedAt` integer,
	`lastError` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_dedupeKey_unique` ON `mail_outbox` (`dedupeKey`);--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`sentAt`,`failedAt`,`nextAttemptAt`);--> statement-breakpoint
CREATE TABLE `mail_suppressions` (
	`email` text PRIMARY KEY NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mail_unsubscribe_tokens` (
	`tokenHash` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_unsubscribe_tokens_created_idx` ON `mail_unsubscribe_tokens` (`createdAt`);--> statement-breakpoint
ALTER TABLE `admin_users` ADD `email` text;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `mailChoice` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `digestTime` text DEFAULT '08:00' NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_users` ADD `digestSentFor` text;--> statement-breakpoint
ALTER TABLE `memories` ADD `notifyWhenPublished` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `memories` ADD `publishedNoticeAt` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `notifyWhenPublished` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `publishedNoticeAt` integer;