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
