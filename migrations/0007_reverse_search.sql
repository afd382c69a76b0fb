CREATE TABLE `image_hashes` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`source` text NOT NULL,
	`case_number` text NOT NULL,
	`ref` text NOT NULL,
	`ticket_id` text,
	`sha256` text NOT NULL,
	`dct0` integer NOT NULL,
	`dct1` integer NOT NULL,
	`dct2` integer NOT NULL,
	`dct3` integer NOT NULL,
	`bm0` integer NOT NULL,
	`bm1` integer NOT NULL,
	`bm2` integer NOT NULL,
	`bm3` integer NOT NULL,
	`thumb_key` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `image_hashes_dct0` ON `image_hashes` (`account_id`,`dct0`);--> statement-breakpoint
CREATE INDEX `image_hashes_dct1` ON `image_hashes` (`account_id`,`dct1`);--> statement-breakpoint
CREATE INDEX `image_hashes_dct2` ON `image_hashes` (`account_id`,`dct2`);--> statement-breakpoint
CREATE INDEX `image_hashes_dct3` ON `image_hashes` (`account_id`,`dct3`);--> statement-breakpoint
CREATE INDEX `image_hashes_bm0` ON `image_hashes` (`account_id`,`bm0`);--> statement-breakpoint
CREATE INDEX `image_hashes_bm1` ON `image_hashes` (`account_id`,`bm1`);--> statement-breakpoint
CREATE INDEX `image_hashes_bm2` ON `image_hashes` (`account_id`,`bm2`);--> statement-breakpoint
CREATE INDEX `image_hashes_bm3` ON `image_hashes` (`account_id`,`bm3`);--> statement-breakpoint
CREATE UNIQUE INDEX `image_hashes_once` ON `image_hashes` (`account_id`,`source`,`case_number`,`sha256`);--> statement-breakpoint
CREATE INDEX `image_hashes_created` ON `image_hashes` (`created_at`);--> statement-breakpoint
DROP TABLE `perceptual_hashes`;--> statement-breakpoint
ALTER TABLE `accounts` ADD `hash_retention_days` integer DEFAULT 365 NOT NULL;