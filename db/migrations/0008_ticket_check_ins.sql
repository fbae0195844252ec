CREATE TABLE `check_ins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`selected_node_id` integer NOT NULL,
	`checked_in_by_id` integer,
	`checked_in_at` text NOT NULL,
	FOREIGN KEY (`selected_node_id`) REFERENCES `selected_nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`checked_in_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `check_ins_selected_node_id_unique` ON `check_ins` (`selected_node_id`);