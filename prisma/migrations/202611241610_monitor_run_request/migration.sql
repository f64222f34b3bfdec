-- monitor.trigger: a "run now" per location, pending until that location's probe claims it
-- (ingest ClaimRuns clears it with a conditional update, so each location answers once).
-- AlterTable
ALTER TABLE "private_location_monitor" ADD COLUMN "run_requested_at" DATETIME;
