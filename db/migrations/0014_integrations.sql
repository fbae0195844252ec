CREATE TABLE `api_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`unit_id` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`scopes` text NOT NULL,
	`created_by_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_unit` ON `api_tokens` (`unit_id`);--> statement-breakpoint
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
CREATE TABLE `event_cancellation_baskets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`basket_id` integer NOT NULL,
	`way` text NOT NULL,
	`module` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`amount` integer NOT NULL,
	`credit_note_id` integer,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`is_mailed` integer DEFAULT false NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `event_cancellations`(`event_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`basket_id`) REFERENCES `baskets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`credit_note_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_cancellation_baskets_basket` ON `event_cancellation_baskets` (`basket_id`);--> statement-breakpoint
CREATE INDEX `event_cancellation_baskets_state` ON `event_cancellation_baskets` (`state`,`event_id`);--> statement-breakpoint
CREATE TABLE `event_cancellations` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`message` text NOT NULL,
	`message_fr` text NOT NULL,
	`cancelled_by_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`cancelled_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
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
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`attempted_at` text NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`delivery_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`endpoint_id` integer NOT NULL,
	`message_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`dedupe_key` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`next_attempt_at` text,
	`claimed_by` text,
	`delivered_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_dedupe` ON `webhook_deliveries` (`endpoint_id`,`dedupe_key`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`unit_id` integer NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`events` text NOT NULL,
	`secret_encrypted` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`failing_since` text,
	`disabled_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_unit` ON `webhook_endpoints` (`unit_id`,`enabled`);--> statement-breakpoint
ALTER TABLE `billing_information` ADD `erased_at` text;--> statement-breakpoint
ALTER TABLE `check_ins` ADD `device_id` text;