CREATE TABLE `login_throttle` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
DROP INDEX `capture_cases_status`;--> statement-breakpoint
CREATE INDEX `capture_cases_created` ON `capture_cases` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `capture_cases_last_result` ON `capture_cases` (`account_id`,`last_result`,`created_at`);--> statement-breakpoint
CREATE INDEX `capture_cases_status` ON `capture_cases` (`account_id`,`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `handler_sessions` ADD `created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `handler_sessions` ADD `last_seen_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `handler_sessions_handler` ON `handler_sessions` (`handler_id`);--> statement-breakpoint
CREATE INDEX `case_notes_case` ON `case_notes` (`case_id`,`created_at`);