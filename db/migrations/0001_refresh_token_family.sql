ALTER TABLE `refresh_tokens` ADD `family` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `refresh_tokens_family` ON `refresh_tokens` (`family`);