CREATE TABLE `invoice_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`selected_node_id` integer NOT NULL,
	`title` text NOT NULL,
	`amount` integer NOT NULL,
	`is_refund` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`selected_node_id`) REFERENCES `selected_nodes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoice_lines_invoice` ON `invoice_lines` (`invoice_id`);--> statement-breakpoint
CREATE INDEX `invoice_lines_selected_node` ON `invoice_lines` (`selected_node_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_lines_refunded_once` ON `invoice_lines` (`selected_node_id`) WHERE "invoice_lines"."is_refund" = 1;--> statement-breakpoint
CREATE TABLE `provider_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`module_key` text NOT NULL,
	`provider_event_id` text NOT NULL,
	`type` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `provider_events_once` ON `provider_events` (`module_key`,`provider_event_id`);--> statement-breakpoint
ALTER TABLE `events` ADD `online_payment_module` text DEFAULT 'demo' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `unit_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `number` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `is_testing` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `psp_refund_id` text;--> statement-breakpoint
-- Invoices written before numbering: their event's unit and basket's testing flag, then 1, 2, 3… per unit (and
-- apart for testing baskets) in the order they were written.
UPDATE `invoices` SET `unit_id` = (SELECT `events`.`unit_id` FROM `baskets` JOIN `events` ON `events`.`id` = `baskets`.`event_id` WHERE `baskets`.`id` = `invoices`.`basket_id`), `is_testing` = (SELECT `baskets`.`testing` FROM `baskets` WHERE `baskets`.`id` = `invoices`.`basket_id`);--> statement-breakpoint
UPDATE `invoices` SET `number` = (SELECT count(*) FROM `invoices` AS `earlier` WHERE `earlier`.`unit_id` = `invoices`.`unit_id` AND `earlier`.`is_testing` = `invoices`.`is_testing` AND `earlier`.`id` <= `invoices`.`id`);--> statement-breakpoint
-- Their lines: what the basket held when it was paid (or is being paid).
INSERT INTO `invoice_lines` (`invoice_id`, `selected_node_id`, `title`, `amount`) SELECT `invoices`.`id`, `selected_nodes`.`id`, `selected_nodes`.`title`, `selected_nodes`.`price` FROM `invoices` JOIN `selected_nodes` ON `selected_nodes`.`basket_id` = `invoices`.`basket_id` WHERE `invoices`.`is_cancelled` = 0 AND `invoices`.`amount` >= 0 AND `selected_nodes`.`status` = 'held';--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_unit_number` ON `invoices` (`unit_id`,`is_testing`,`number`);--> statement-breakpoint
ALTER TABLE `payment_intents` ADD `hosted_url` text;--> statement-breakpoint
ALTER TABLE `payment_intents` ADD `psp_payment_id` text;--> statement-breakpoint
ALTER TABLE `units` ADD `stripe_secret_key_encrypted` text;--> statement-breakpoint
ALTER TABLE `units` ADD `stripe_webhook_secret_encrypted` text;