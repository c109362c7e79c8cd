CREATE TABLE `life_moments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`date` text NOT NULL,
	`title` text NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`photoId` integer,
	`createdAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`photoId`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `life_moments_date_idx` ON `life_moments` (`date`,`id`);--> statement-breakpoint
CREATE TABLE `life_story` (
	`id` integer PRIMARY KEY NOT NULL,
	`story` text DEFAULT '' NOT NULL,
	`answers` text DEFAULT '{}' NOT NULL,
	`photoId` integer,
	`published` integer DEFAULT false NOT NULL,
	`publishedAt` integer,
	`updatedAt` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updatedBy` text,
	FOREIGN KEY (`photoId`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "life_story_one_row" CHECK("life_story"."id" = 1)
);
