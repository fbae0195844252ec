CREATE TABLE `personal_data_erasures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`erased_by_id` integer,
	`email_hash` text NOT NULL,
	`email_salt` text NOT NULL,
	`unit_ids` text,
	`event_ids` text NOT NULL,
	`counts` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`erased_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `billing_information` ADD `erased_at` text;