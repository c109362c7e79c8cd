-- Usernames become unique whatever their case. Admins added before this whose
-- names differed only in case (only possible through the admin command) keep
-- their accounts: the first added keeps the name, each later one becomes
-- "<name>-<id>" (shown in the Family admins list), and the invitations they made
-- follow them.
UPDATE `admin_invitations` SET `createdBy` = `createdBy` || '-' || (SELECT `u`.`id` FROM `admin_users` `u` WHERE `u`.`username` = `admin_invitations`.`createdBy`)
WHERE `createdBy` IN (
	SELECT `u`.`username` FROM `admin_users` `u`
	WHERE EXISTS (SELECT 1 FROM `admin_users` `e` WHERE `e`.`username` = `u`.`username` COLLATE NOCASE AND `e`.`id` < `u`.`id`)
);--> statement-breakpoint
UPDATE `admin_users` SET `username` = `username` || '-' || `id`
WHERE EXISTS (SELECT 1 FROM `admin_users` `e` WHERE `e`.`username` = `admin_users`.`username` COLLATE NOCASE AND `e`.`id` < `admin_users`.`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `admin_users_username_nocase_idx` ON `admin_users` ("username" collate nocase);
