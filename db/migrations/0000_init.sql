CREATE TABLE `memberships` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`unit_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_unit_user` ON `memberships` (`unit_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `memberships_user` ON `memberships` (`user_id`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer,
	`frontend_login_ids` text DEFAULT '[]' NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_token_hash_unique` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_user` ON `refresh_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `units` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`email` text,
	`address` text,
	`iban` text,
	`payout_account_holder` text,
	`agent_base_fees` integer DEFAULT 0 NOT NULL,
	`agent_fees` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`personal_unit_id` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`is_superuser` integer DEFAULT false NOT NULL,
	`email_verified_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`personal_unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `communication_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`order_confirmation_subject` text,
	`order_confirmation_body` text,
	`payment_reminder_subject` text,
	`payment_reminder_body` text,
	`confirmation_page_text` text,
	`confirmation_redirect_url` text,
	`is_pdf_ticket_enabled` integer DEFAULT true NOT NULL,
	`pdf_ticket_text` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `communication_settings_event_id_unique` ON `communication_settings` (`event_id`);--> statement-breakpoint
CREATE TABLE `event_access_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`method` text NOT NULL,
	`secret_key` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_access_methods_event_method` ON `event_access_methods` (`event_id`,`method`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`unit_id` integer NOT NULL,
	`name` text NOT NULL,
	`frontend_title` text NOT NULL,
	`frontend_path` text NOT NULL,
	`frontend_url` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`moderation_status` text DEFAULT 'not_requested' NOT NULL,
	`moderation_description` text,
	`welcome_text` text DEFAULT '' NOT NULL,
	`description_header_image_id` integer,
	`frontend_organizers` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`location_text` text DEFAULT '' NOT NULL,
	`location_address` text DEFAULT '' NOT NULL,
	`is_in_lausanne` integer DEFAULT false NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`registrations_start_date` text,
	`registrations_end_date` text,
	`payments_start_date` text,
	`payments_end_date` text,
	`closed_start_date` text,
	`reservation_minutes` integer DEFAULT 30 NOT NULL,
	`is_point_of_sale_enabled` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`unit_id`) REFERENCES `units`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_frontend_path` ON `events` (lower("frontend_path"));--> statement-breakpoint
CREATE INDEX `events_unit` ON `events` (`unit_id`);--> statement-breakpoint
CREATE TABLE `frontend_logins` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`testing` integer DEFAULT false NOT NULL,
	`method` text NOT NULL,
	`email` text,
	`username` text NOT NULL,
	`user_id` integer,
	`validation_token_hash` text,
	`validation_expires_at` text,
	`validated_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `frontend_logins_person` ON `frontend_logins` (`event_id`,`testing`,`email`) WHERE "frontend_logins"."email" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `points_of_sale` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `registration_modules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`root_node_id` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`root_node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `registration_modules_event_id_unique` ON `registration_modules` (`event_id`);--> statement-breakpoint
CREATE TABLE `uploaded_images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`event_id` integer,
	`frontend_login_id` integer,
	`user_id` integer,
	`privacy_level` text DEFAULT 'public' NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`frontend_login_id`) REFERENCES `frontend_logins`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `conditions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`logical_operator` text DEFAULT 'and' NOT NULL,
	`is_implicit` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `node_accesses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`is_accessible` integer DEFAULT true NOT NULL,
	`condition_id` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `node_availabilities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`condition_id` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `node_cart_configurations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`weight` integer DEFAULT 1 NOT NULL,
	`range_min` integer DEFAULT 0 NOT NULL,
	`range_max` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "node_cart_configurations_range" CHECK("node_cart_configurations"."range_max" IS NULL OR "node_cart_configurations"."range_max" >= "node_cart_configurations"."range_min")
);
--> statement-breakpoint
CREATE TABLE `node_configuration_accesses` (
	`node_configuration_id` integer NOT NULL,
	`access_id` integer NOT NULL,
	PRIMARY KEY(`node_configuration_id`, `access_id`),
	FOREIGN KEY (`node_configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`access_id`) REFERENCES `node_accesses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_configuration_accesses_target` ON `node_configuration_accesses` (`access_id`);--> statement-breakpoint
CREATE TABLE `node_configuration_availabilities` (
	`node_configuration_id` integer NOT NULL,
	`availability_id` integer NOT NULL,
	PRIMARY KEY(`node_configuration_id`, `availability_id`),
	FOREIGN KEY (`node_configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`availability_id`) REFERENCES `node_availabilities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_configuration_availabilities_target` ON `node_configuration_availabilities` (`availability_id`);--> statement-breakpoint
CREATE TABLE `node_configuration_extra_info_groups` (
	`node_configuration_id` integer NOT NULL,
	`extra_info_group_id` integer NOT NULL,
	PRIMARY KEY(`node_configuration_id`, `extra_info_group_id`),
	FOREIGN KEY (`node_configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`extra_info_group_id`) REFERENCES `node_extra_info_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_configuration_extra_info_groups_target` ON `node_configuration_extra_info_groups` (`extra_info_group_id`);--> statement-breakpoint
CREATE TABLE `node_configuration_limits` (
	`node_configuration_id` integer NOT NULL,
	`limit_id` integer NOT NULL,
	PRIMARY KEY(`node_configuration_id`, `limit_id`),
	FOREIGN KEY (`node_configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`limit_id`) REFERENCES `node_limits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_configuration_limits_target` ON `node_configuration_limits` (`limit_id`);--> statement-breakpoint
CREATE TABLE `node_configuration_price_rules` (
	`node_configuration_id` integer NOT NULL,
	`price_rule_id` integer NOT NULL,
	PRIMARY KEY(`node_configuration_id`, `price_rule_id`),
	FOREIGN KEY (`node_configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`price_rule_id`) REFERENCES `node_price_rules`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_configuration_price_rules_target` ON `node_configuration_price_rules` (`price_rule_id`);--> statement-breakpoint
CREATE TABLE `node_configurations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`category` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`image_id` integer,
	`image_style` text,
	`item_style` text,
	`is_title_displayable` integer DEFAULT true NOT NULL,
	`is_image_displayable` integer DEFAULT true NOT NULL,
	`is_description_displayable` integer DEFAULT true NOT NULL,
	`is_tags_displayable` integer DEFAULT true NOT NULL,
	`is_subject_to_lausanne_tax` integer DEFAULT false NOT NULL,
	`is_required` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `uploaded_images`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `node_extra_info_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`name` text NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`is_inline` integer DEFAULT false NOT NULL,
	`help_text` text DEFAULT '' NOT NULL,
	`is_required` integer DEFAULT false NOT NULL,
	`condition_id` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `node_extra_infos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`group_id` integer NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`name` text NOT NULL,
	`help_text` text DEFAULT '' NOT NULL,
	`type` text NOT NULL,
	`is_required` integer DEFAULT false NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`choices_json` text,
	`major_json` text,
	`range` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `node_extra_info_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `node_limits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`maximum` integer NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`condition_id` integer,
	`used` integer DEFAULT 0 NOT NULL,
	`testing_used` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "node_limits_used" CHECK("node_limits"."used" >= 0 AND "node_limits"."used" <= "node_limits"."maximum"),
	CONSTRAINT "node_limits_testing_used" CHECK("node_limits"."testing_used" >= 0 AND "node_limits"."testing_used" <= "node_limits"."maximum")
);
--> statement-breakpoint
CREATE TABLE `node_price_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`mode` text NOT NULL,
	`value` integer NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`should_propagate` integer DEFAULT false NOT NULL,
	`condition_id` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `node_tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`name` text NOT NULL,
	`node_configuration_id` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`node_configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `nodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`parent_id` integer,
	`order` integer DEFAULT 0 NOT NULL,
	`configuration_id` integer NOT NULL,
	`cart_configuration_id` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cart_configuration_id`) REFERENCES `node_cart_configurations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `nodes_event` ON `nodes` (`event_id`);--> statement-breakpoint
CREATE INDEX `nodes_parent` ON `nodes` (`parent_id`,`order`);--> statement-breakpoint
CREATE TABLE `promotion_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promotion_codes_event_value` ON `promotion_codes` (`event_id`,lower("value"));--> statement-breakpoint
CREATE TABLE `statements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`condition_id` integer NOT NULL,
	`left_hand_operand` text NOT NULL,
	`left_hand_value` text,
	`operator` text NOT NULL,
	`right_hand_value` text DEFAULT '' NOT NULL,
	`scope` text DEFAULT 'is' NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `baskets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer NOT NULL,
	`created_by_id` integer NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`testing` integer DEFAULT false NOT NULL,
	`billing_information_id` integer,
	`language` text DEFAULT 'en' NOT NULL,
	`unikey` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `frontend_logins`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`billing_information_id`) REFERENCES `billing_information`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `baskets_unikey_unique` ON `baskets` (`unikey`);--> statement-breakpoint
CREATE INDEX `baskets_event_status` ON `baskets` (`event_id`,`status`);--> statement-breakpoint
CREATE INDEX `baskets_login` ON `baskets` (`created_by_id`,`event_id`);--> statement-breakpoint
CREATE TABLE `billing_information` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`address` text NOT NULL,
	`postal_code` text NOT NULL,
	`city` text NOT NULL,
	`country` text NOT NULL,
	`created_by_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`created_by_id`) REFERENCES `frontend_logins`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `selected_node_extra_info_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`selected_node_id` integer NOT NULL,
	`group_id` integer,
	`name` text NOT NULL,
	`is_required` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`selected_node_id`) REFERENCES `selected_nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `node_extra_info_groups`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `selected_node_extra_infos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`selected_group_id` integer NOT NULL,
	`extra_info_id` integer,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`value` text,
	FOREIGN KEY (`selected_group_id`) REFERENCES `selected_node_extra_info_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`extra_info_id`) REFERENCES `node_extra_infos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `selected_node_limits` (
	`selected_node_id` integer NOT NULL,
	`limit_id` integer NOT NULL,
	`is_testing` integer NOT NULL,
	PRIMARY KEY(`selected_node_id`, `limit_id`),
	FOREIGN KEY (`selected_node_id`) REFERENCES `selected_nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`limit_id`) REFERENCES `node_limits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `selected_node_limits_limit` ON `selected_node_limits` (`limit_id`);--> statement-breakpoint
CREATE TABLE `selected_nodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`basket_id` integer NOT NULL,
	`node_id` integer,
	`parent_id` integer,
	`configuration_id` integer,
	`title` text NOT NULL,
	`is_article` integer NOT NULL,
	`is_subject_to_lausanne_tax` integer DEFAULT false NOT NULL,
	`price` integer NOT NULL,
	`status` text DEFAULT 'held' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`basket_id`) REFERENCES `baskets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`node_id`) REFERENCES `nodes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`parent_id`) REFERENCES `selected_nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`configuration_id`) REFERENCES `node_configurations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `selected_nodes_basket` ON `selected_nodes` (`basket_id`,`status`);--> statement-breakpoint
CREATE INDEX `selected_nodes_parent` ON `selected_nodes` (`parent_id`);--> statement-breakpoint
CREATE TABLE `selected_promotion_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`basket_id` integer NOT NULL,
	`promotion_code_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`basket_id`) REFERENCES `baskets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`promotion_code_id`) REFERENCES `promotion_codes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `selected_promotion_codes_basket_code` ON `selected_promotion_codes` (`basket_id`,`promotion_code_id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`basket_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`due_date` text,
	`is_resolved` integer DEFAULT false NOT NULL,
	`resolved_at` text,
	`is_cancelled` integer DEFAULT false NOT NULL,
	`related_invoice_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`basket_id`) REFERENCES `baskets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`related_invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoices_basket` ON `invoices` (`basket_id`);--> statement-breakpoint
CREATE TABLE `payment_intents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`created_by_id` integer,
	`module_key` text NOT NULL,
	`psp_id` text NOT NULL,
	`is_error` integer DEFAULT false NOT NULL,
	`is_cancelled` integer DEFAULT false NOT NULL,
	`error_message` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `frontend_logins`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_intents_psp_id_unique` ON `payment_intents` (`psp_id`);--> statement-breakpoint
CREATE INDEX `payment_intents_invoice` ON `payment_intents` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`to` text NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`subject` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`sent_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_status` ON `mail_outbox` (`status`,`next_attempt_at`);