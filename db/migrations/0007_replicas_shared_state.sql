CREATE TABLE `instance_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`points` integer DEFAULT 0 NOT NULL,
	`expire` integer
);
--> statement-breakpoint
CREATE INDEX `rate_limits_expire` ON `rate_limits` (`expire`);--> statement-breakpoint
ALTER TABLE `uploaded_images` ADD `bytes` blob;