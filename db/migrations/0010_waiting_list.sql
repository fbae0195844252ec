CREATE TABLE `waiting_list_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`login_id` integer NOT NULL,
	`email` text NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`testing` integer DEFAULT false NOT NULL,
	`node_id` integer,
	`title` text NOT NULL,
	`quantity` integer NOT NULL,
	`state` text DEFAULT 'waiting' NOT NULL,
	`offered_quantity` integer,
	`offered_at` text,
	`offer_expires_at` text,
	`basket_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `waiting_lists`(`event_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`login_id`) REFERENCES `frontend_logins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`basket_id`) REFERENCES `baskets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `waiting_list_entries_state` ON `waiting_list_entries` (`state`,`event_id`);--> statement-breakpoint
CREATE INDEX `waiting_list_entries_event` ON `waiting_list_entries` (`event_id`,`testing`,`id`);--> statement-breakpoint
CREATE INDEX `waiting_list_entries_basket` ON `waiting_list_entries` (`basket_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `waiting_list_entries_live` ON `waiting_list_entries` (`event_id`,`testing`,`login_id`,`node_id`) WHERE "waiting_list_entries"."state" IN ('waiting', 'offering', 'offered');--> statement-breakpoint
CREATE TABLE `waiting_list_entry_limits` (
	`entry_id` integer NOT NULL,
	`limit_id` integer NOT NULL,
	PRIMARY KEY(`entry_id`, `limit_id`),
	FOREIGN KEY (`entry_id`) REFERENCES `waiting_list_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`limit_id`) REFERENCES `node_limits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `waiting_list_entry_limits_limit` ON `waiting_list_entry_limits` (`limit_id`,`entry_id`);--> statement-breakpoint
CREATE TABLE `waiting_lists` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`accepting` integer DEFAULT true NOT NULL,
	`automatic` integer DEFAULT true NOT NULL,
	`offer_minutes` integer NOT NULL,
	`partial_offers` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `node_limits` ADD `waiting` integer DEFAULT 0 NOT NULL CHECK (`waiting` >= 0);--> statement-breakpoint
ALTER TABLE `node_limits` ADD `testing_waiting` integer DEFAULT 0 NOT NULL CHECK (`testing_waiting` >= 0);
