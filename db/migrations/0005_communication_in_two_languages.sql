ALTER TABLE `communication_settings` ADD `sender_name` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `reply_to` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `signature_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `signature_fr` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `order_confirmation_subject_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `order_confirmation_subject_fr` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `order_confirmation_body_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `order_confirmation_body_fr` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `payment_reminder_subject_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `payment_reminder_subject_fr` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `payment_reminder_body_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `payment_reminder_body_fr` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `confirmation_page_text_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `confirmation_page_text_fr` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `pdf_ticket_text_en` text;--> statement-breakpoint
ALTER TABLE `communication_settings` ADD `pdf_ticket_text_fr` text;--> statement-breakpoint
-- The single-language texts were shown to every buyer whatever their language: they become both languages' texts,
-- so no buyer reads anything different after this migration (docs/decisions/0013).
UPDATE `communication_settings` SET
  `order_confirmation_subject_en` = `order_confirmation_subject`, `order_confirmation_subject_fr` = `order_confirmation_subject`,
  `order_confirmation_body_en` = `order_confirmation_body`, `order_confirmation_body_fr` = `order_confirmation_body`,
  `payment_reminder_subject_en` = `payment_reminder_subject`, `payment_reminder_subject_fr` = `payment_reminder_subject`,
  `payment_reminder_body_en` = `payment_reminder_body`, `payment_reminder_body_fr` = `payment_reminder_body`,
  `confirmation_page_text_en` = `confirmation_page_text`, `confirmation_page_text_fr` = `confirmation_page_text`,
  `pdf_ticket_text_en` = `pdf_ticket_text`, `pdf_ticket_text_fr` = `pdf_ticket_text`;--> statement-breakpoint
ALTER TABLE `communication_settings` DROP COLUMN `order_confirmation_subject`;--> statement-breakpoint
ALTER TABLE `communication_settings` DROP COLUMN `order_confirmation_body`;--> statement-breakpoint
ALTER TABLE `communication_settings` DROP COLUMN `payment_reminder_subject`;--> statement-breakpoint
ALTER TABLE `communication_settings` DROP COLUMN `payment_reminder_body`;--> statement-breakpoint
ALTER TABLE `communication_settings` DROP COLUMN `confirmation_page_text`;--> statement-breakpoint
ALTER TABLE `communication_settings` DROP COLUMN `pdf_ticket_text`;
