CREATE TABLE `check_in_doubles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`check_in_id` integer NOT NULL,
	`device_id` text NOT NULL,
	`scanned_by_id` integer,
	`scanned_at` text NOT NULL,
	`reported_at` text NOT NULL,
	FOREIGN KEY (`check_in_id`) REFERENCES `check_ins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`scanned_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `check_in_doubles_check_in_device` ON `check_in_doubles` (`check_in_id`,`device_id`);--> statement-breakpoint
ALTER TABLE `check_ins` ADD `device_id` text;