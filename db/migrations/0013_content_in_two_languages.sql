-- Every text an organiser writes for buyers gains its French beside it (docs/decisions/0043). The text already
-- written stays where it is, as the English: a French buyer reads it until its French is written, as before.
ALTER TABLE `selected_node_extra_info_groups` ADD `name_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `selected_node_extra_infos` ADD `name_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `selected_nodes` ADD `title_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_accesses` ADD `label_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_availabilities` ADD `name_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_configurations` ADD `title_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_configurations` ADD `description_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_extra_info_groups` ADD `name_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_extra_info_groups` ADD `help_text_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_extra_infos` ADD `text_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_extra_infos` ADD `name_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_extra_infos` ADD `help_text_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_extra_infos` ADD `choices_fr_json` text;--> statement-breakpoint
ALTER TABLE `node_limits` ADD `label_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_price_rules` ADD `label_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `node_tags` ADD `name_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `frontend_title_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `welcome_text_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `frontend_organizers_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `location_text_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `points_of_sale` ADD `title_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `points_of_sale` ADD `description_fr` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `points_of_sale` ADD `location_fr` text DEFAULT '' NOT NULL;