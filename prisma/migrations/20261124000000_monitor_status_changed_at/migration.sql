-- When ingest last changed a monitor's status: the incident reconcile job opens a missed
-- incident only for an error that started after the monitor's last incident.
-- AlterTable
ALTER TABLE "monitor" ADD COLUMN "status_changed_at" DATETIME;

