CREATE TABLE `waiting_room_places` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`login_id` integer NOT NULL,
	`address` text NOT NULL,
	`device` text,
	`arrived_at` text NOT NULL,
	`early` integer NOT NULL,
	`draw` integer,
	`position` integer,
	`held_at` text,
	`left_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `waiting_rooms`(`event_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`login_id`) REFERENCES `frontend_logins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waiting_room_places_login` ON `waiting_room_places` (`event_id`,`login_id`) WHERE "waiting_room_places"."left_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `waiting_room_places_device` ON `waiting_room_places` (`event_id`,`device`) WHERE "waiting_room_places"."device" IS NOT NULL AND "waiting_room_places"."left_at" IS NULL;--> statement-breakpoint
CREATE INDEX `waiting_room_places_draw` ON `waiting_room_places` (`event_id`,`early`,`draw`);--> statement-breakpoint
CREATE INDEX `waiting_room_places_address` ON `waiting_room_places` (`event_id`,`address`);--> statement-breakpoint
CREATE TABLE `waiting_rooms` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`opens_at` text NOT NULL,
	`rate_per_minute` integer NOT NULL,
	`admission_minutes` integer NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`schedule` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `baskets` ADD `hold_renewals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `node_configurations` ADD `max_per_buyer` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `max_tickets_per_buyer` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `max_hold_renewals` integer DEFAULT 3 NOT NULL;