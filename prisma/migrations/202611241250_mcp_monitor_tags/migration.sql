-- Monitor tags (spec 4.1 get_monitor): a JSON array of labels, settable wherever monitors are.
-- AlterTable
ALTER TABLE "monitor" ADD COLUMN "tags" TEXT NOT NULL DEFAULT '[]';
