ALTER TABLE `events` ADD `payment_term_minutes` integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `max_items_per_basket` integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `claimed_by` text;--> statement-breakpoint
ALTER TABLE `users` ADD `session_version` integer DEFAULT 0 NOT NULL;