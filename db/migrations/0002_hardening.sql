CREATE TABLE `rate_limit_hits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bucket` text NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL,
	`weight` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_hits_bucket_key_at_idx` ON `rate_limit_hits` (`bucket`,`key`,`at`);--> statement-breakpoint
CREATE INDEX `rate_limit_hits_at_idx` ON `rate_limit_hits` (`at`);--> statement-breakpoint
ALTER TABLE `signed_uploads` ADD `clientKey` text;--> statement-breakpoint
ALTER TABLE `signed_uploads` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `processingError` text;