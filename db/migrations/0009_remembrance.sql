CREATE TABLE `candles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text,
	`message` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`counted` integer DEFAULT true NOT NULL,
	`visitor` text NOT NULL,
	`day` text NOT NULL,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`moderatedBy` text,
	`moderatedAt` integer,
	CONSTRAINT "candles_status_check" CHECK("candles"."status" in ('PENDING', 'APPROVED', 'REJECTED', 'HIDDEN'))
);
--> statement-breakpoint
CREATE INDEX `candles_status_created_idx` ON `candles` (`status`,`createdAt`);--> statement-breakpoint
CREATE INDEX `candles_visitor_day_idx` ON `candles` (`visitor`,`day`);--> statement-breakpoint
CREATE TABLE `followers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`topics` text NOT NULL,
	`requested` text,
	`tokenHash` text,
	`confirmationSentAt` integer,
	`confirmedAt` integer,
	`newsSince` integer,
	`lastDigestAt` integer,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `followers_email_idx` ON `followers` (`email`);--> statement-breakpoint
CREATE INDEX `followers_token_idx` ON `followers` (`tokenHash`);