CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`communication_mode` text NOT NULL,
	`features` text DEFAULT '{}' NOT NULL,
	`push_url` text,
	`push_secret` text,
	`reminders` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `handler_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`handler_id` text NOT NULL,
	`csrf_token` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`handler_id`) REFERENCES `handlers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `handlers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `handlers_email` ON `handlers` (`email`);--> statement-breakpoint
CREATE INDEX `handlers_account` ON `handlers` (`account_id`);--> statement-breakpoint
CREATE TABLE `capture_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`case_number` text NOT NULL,
	`status` text NOT NULL,
	`closed` integer DEFAULT false NOT NULL,
	`last_result` text,
	`final_decision` text,
	`retrigger_count` integer DEFAULT 0 NOT NULL,
	`reminder_count` integer DEFAULT 0 NOT NULL,
	`reminders_enabled` integer DEFAULT false NOT NULL,
	`sb_email` text,
	`vn_name` text,
	`vn_email` text,
	`vn_phone` text,
	`custom_note` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`closed_at` integer,
	`last_reminder_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capture_cases_one_open` ON `capture_cases` (`account_id`,`case_number`) WHERE "capture_cases"."closed" = 0;--> statement-breakpoint
CREATE INDEX `capture_cases_lookup` ON `capture_cases` (`account_id`,`case_number`,`created_at`);--> statement-breakpoint
CREATE INDEX `capture_cases_status` ON `capture_cases` (`account_id`,`status`);--> statement-breakpoint
CREATE TABLE `capture_events` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`seq` integer NOT NULL,
	`timestamp` integer NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capture_events_order` ON `capture_events` (`case_id`,`seq`);--> statement-breakpoint
CREATE TABLE `capture_nonces` (
	`nonce` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `capture_sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `capture_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`session_id` text NOT NULL,
	`scene_position` integer,
	`attempt` integer NOT NULL,
	`r2_key` text NOT NULL,
	`sha256` text NOT NULL,
	`nonce` text NOT NULL,
	`captured_at` integer,
	`attestation` text NOT NULL,
	`checks` text NOT NULL,
	`verdict` text NOT NULL,
	`latitude` real,
	`longitude` real,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `capture_sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `capture_photos_case` ON `capture_photos` (`case_id`,`session_id`);--> statement-breakpoint
CREATE TABLE `capture_scenes` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`position` integer NOT NULL,
	`description` text NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capture_scenes_position` ON `capture_scenes` (`case_id`,`position`);--> statement-breakpoint
CREATE TABLE `capture_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`session_number` integer NOT NULL,
	`token` text NOT NULL,
	`triggered_at` integer NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`final_status` text,
	`superseded_at` integer,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capture_sessions_token` ON `capture_sessions` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `capture_sessions_number` ON `capture_sessions` (`case_id`,`session_number`);--> statement-breakpoint
CREATE TABLE `case_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`handler_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`case_id` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outbox_case` ON `outbox` (`case_id`);--> statement-breakpoint
CREATE TABLE `push_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`status` text NOT NULL,
	`status_code` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `capture_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `push_deliveries_case` ON `push_deliveries` (`case_id`,`at`);--> statement-breakpoint
CREATE TABLE `analyses` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`digest` text NOT NULL,
	`case_number` text NOT NULL,
	`status` text NOT NULL,
	`suspicion_level` text,
	`result_key` text,
	`tokens` integer,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `analyses_digest` ON `analyses` (`account_id`,`digest`);--> statement-breakpoint
CREATE TABLE `downloads` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`analysis_id` text NOT NULL,
	`r2_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `perceptual_hashes` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`hash` text NOT NULL,
	`sha256` text NOT NULL,
	`case_number` text NOT NULL,
	`file_name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `phash_account` ON `perceptual_hashes` (`account_id`,`hash`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`storage_key` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`case_number` text NOT NULL,
	`expires_at` integer NOT NULL,
	`uploaded_at` integer,
	`size` integer,
	`consumed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `uploads_created` ON `uploads` (`created_at`);--> statement-breakpoint
CREATE TABLE `usage_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`analysis_id` text NOT NULL,
	`tokens` integer NOT NULL,
	`delivered_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`analysis_id`) REFERENCES `analyses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `usage_account` ON `usage_ledger` (`account_id`,`delivered_at`);