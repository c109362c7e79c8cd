-- Helpers (issue 44): every admin has a role, "family" (everything, as every
-- admin before this) or "helper" (moderation only); an invitation names the
-- role its person gets. Existing admins and invitations stay "family". A row
-- a helper rejects is "set aside": kept whole until the family decides.
-- Columns are added in place (SQLite allows a CHECK on an added column), so
-- no table is rebuilt under the sessions that name its admins.
ALTER TABLE `admin_users` ADD `role` text DEFAULT 'family' NOT NULL CONSTRAINT "admin_users_role_check" CHECK(`role` in ('family', 'helper'));--> statement-breakpoint
ALTER TABLE `admin_invitations` ADD `role` text DEFAULT 'family' NOT NULL CONSTRAINT "admin_invitations_role_check" CHECK(`role` in ('family', 'helper'));--> statement-breakpoint
ALTER TABLE `candles` ADD `setAside` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `memories` ADD `setAside` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `setAside` integer DEFAULT false NOT NULL;
