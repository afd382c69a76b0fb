DROP INDEX `handlers_email`;--> statement-breakpoint
CREATE UNIQUE INDEX `handlers_email_active` ON `handlers` (`email`) WHERE removed_at IS NULL;