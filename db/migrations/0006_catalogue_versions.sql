CREATE TABLE `catalogue_versions` (
	`event_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `node_limits_event` ON `node_limits` (`event_id`);--> statement-breakpoint
-- A per-event number moved by every write to the tables the catalogue is loaded from (api/src/services/catalogue.ts),
-- so that a cache in any process or replica knows with one indexed read whether its copy is current
-- (docs/decisions/0019). The stock counters `used`/`testing_used` move on every add and are read fresh: updating only
-- them moves nothing.
INSERT INTO `catalogue_versions` (`event_id`) SELECT `id` FROM `events`;--> statement-breakpoint
CREATE TRIGGER `events_catalogue_version` AFTER INSERT ON `events` BEGIN
  INSERT INTO `catalogue_versions` (`event_id`) VALUES (NEW.`id`);
END;--> statement-breakpoint
CREATE TRIGGER `registration_modules_insert_catalogue_version` AFTER INSERT ON `registration_modules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `registration_modules_update_catalogue_version` AFTER UPDATE ON `registration_modules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `registration_modules_delete_catalogue_version` AFTER DELETE ON `registration_modules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `nodes_insert_catalogue_version` AFTER INSERT ON `nodes` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `nodes_update_catalogue_version` AFTER UPDATE ON `nodes` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `nodes_delete_catalogue_version` AFTER DELETE ON `nodes` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_configurations_insert_catalogue_version` AFTER INSERT ON `node_configurations` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_configurations_update_catalogue_version` AFTER UPDATE ON `node_configurations` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configurations_delete_catalogue_version` AFTER DELETE ON `node_configurations` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_cart_configurations_insert_catalogue_version` AFTER INSERT ON `node_cart_configurations` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_cart_configurations_update_catalogue_version` AFTER UPDATE ON `node_cart_configurations` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_cart_configurations_delete_catalogue_version` AFTER DELETE ON `node_cart_configurations` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_tags_insert_catalogue_version` AFTER INSERT ON `node_tags` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_tags_update_catalogue_version` AFTER UPDATE ON `node_tags` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_tags_delete_catalogue_version` AFTER DELETE ON `node_tags` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_accesses_insert_catalogue_version` AFTER INSERT ON `node_accesses` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_accesses_update_catalogue_version` AFTER UPDATE ON `node_accesses` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_accesses_delete_catalogue_version` AFTER DELETE ON `node_accesses` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_availabilities_insert_catalogue_version` AFTER INSERT ON `node_availabilities` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_availabilities_update_catalogue_version` AFTER UPDATE ON `node_availabilities` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_availabilities_delete_catalogue_version` AFTER DELETE ON `node_availabilities` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_extra_info_groups_insert_catalogue_version` AFTER INSERT ON `node_extra_info_groups` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_extra_info_groups_update_catalogue_version` AFTER UPDATE ON `node_extra_info_groups` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_extra_info_groups_delete_catalogue_version` AFTER DELETE ON `node_extra_info_groups` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_extra_infos_insert_catalogue_version` AFTER INSERT ON `node_extra_infos` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_extra_infos_update_catalogue_version` AFTER UPDATE ON `node_extra_infos` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_extra_infos_delete_catalogue_version` AFTER DELETE ON `node_extra_infos` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_limits_insert_catalogue_version` AFTER INSERT ON `node_limits` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_limits_update_catalogue_version` AFTER UPDATE OF `label`, `maximum`, `order`, `condition_id`, `event_id` ON `node_limits` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_limits_delete_catalogue_version` AFTER DELETE ON `node_limits` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_price_rules_insert_catalogue_version` AFTER INSERT ON `node_price_rules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_price_rules_update_catalogue_version` AFTER UPDATE ON `node_price_rules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_price_rules_delete_catalogue_version` AFTER DELETE ON `node_price_rules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `conditions_insert_catalogue_version` AFTER INSERT ON `conditions` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `conditions_update_catalogue_version` AFTER UPDATE ON `conditions` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `conditions_delete_catalogue_version` AFTER DELETE ON `conditions` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `statements_insert_catalogue_version` AFTER INSERT ON `statements` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = NEW.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `statements_update_catalogue_version` AFTER UPDATE ON `statements` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN (OLD.`event_id`, NEW.`event_id`);
END;--> statement-breakpoint
CREATE TRIGGER `statements_delete_catalogue_version` AFTER DELETE ON `statements` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = OLD.`event_id`;
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_accesses_insert_catalogue_version` AFTER INSERT ON `node_configuration_accesses` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_accesses_update_catalogue_version` AFTER UPDATE ON `node_configuration_accesses` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN ((SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`), (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`));
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_accesses_delete_catalogue_version` AFTER DELETE ON `node_configuration_accesses` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_availabilities_insert_catalogue_version` AFTER INSERT ON `node_configuration_availabilities` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_availabilities_update_catalogue_version` AFTER UPDATE ON `node_configuration_availabilities` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN ((SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`), (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`));
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_availabilities_delete_catalogue_version` AFTER DELETE ON `node_configuration_availabilities` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_extra_info_groups_insert_catalogue_version` AFTER INSERT ON `node_configuration_extra_info_groups` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_extra_info_groups_update_catalogue_version` AFTER UPDATE ON `node_configuration_extra_info_groups` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN ((SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`), (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`));
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_extra_info_groups_delete_catalogue_version` AFTER DELETE ON `node_configuration_extra_info_groups` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_limits_insert_catalogue_version` AFTER INSERT ON `node_configuration_limits` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_limits_update_catalogue_version` AFTER UPDATE ON `node_configuration_limits` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN ((SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`), (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`));
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_limits_delete_catalogue_version` AFTER DELETE ON `node_configuration_limits` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_price_rules_insert_catalogue_version` AFTER INSERT ON `node_configuration_price_rules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`);
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_price_rules_update_catalogue_version` AFTER UPDATE ON `node_configuration_price_rules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` IN ((SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`), (SELECT `event_id` FROM `node_configurations` WHERE `id` = NEW.`node_configuration_id`));
END;--> statement-breakpoint
CREATE TRIGGER `node_configuration_price_rules_delete_catalogue_version` AFTER DELETE ON `node_configuration_price_rules` BEGIN
  UPDATE `catalogue_versions` SET `version` = `version` + 1 WHERE `event_id` = (SELECT `event_id` FROM `node_configurations` WHERE `id` = OLD.`node_configuration_id`);
END;
