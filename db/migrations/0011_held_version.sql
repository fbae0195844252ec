DROP INDEX `selected_nodes_basket`;--> statement-breakpoint
CREATE INDEX `selected_nodes_basket` ON `selected_nodes` (`basket_id`,`status`,`node_id`,`is_article`);--> statement-breakpoint
ALTER TABLE `baskets` ADD `held_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A per-basket number moved by every change to its held lines: an add's guard compares it with the one it read, in
-- one indexed read, instead of the list of the lines' ids, whose cost grew with the basket (docs/decisions/0041).
CREATE TRIGGER `selected_nodes_insert_held_version` AFTER INSERT ON `selected_nodes` WHEN NEW.`status` = 'held' BEGIN
  UPDATE `baskets` SET `held_version` = `held_version` + 1 WHERE `id` = NEW.`basket_id`;
END;--> statement-breakpoint
CREATE TRIGGER `selected_nodes_update_held_version` AFTER UPDATE OF `status`, `basket_id`, `node_id` ON `selected_nodes`
  WHEN OLD.`status` = 'held' OR NEW.`status` = 'held' BEGIN
  UPDATE `baskets` SET `held_version` = `held_version` + 1 WHERE `id` IN (OLD.`basket_id`, NEW.`basket_id`);
END;--> statement-breakpoint
CREATE TRIGGER `selected_nodes_delete_held_version` AFTER DELETE ON `selected_nodes` WHEN OLD.`status` = 'held' BEGIN
  UPDATE `baskets` SET `held_version` = `held_version` + 1 WHERE `id` = OLD.`basket_id`;
END;
