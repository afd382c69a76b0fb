CREATE TABLE `failed_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`queue` text NOT NULL,
	`body` text NOT NULL,
	`attempts` integer NOT NULL,
	`failed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `failed_jobs_failed_at` ON `failed_jobs` (`failed_at`);