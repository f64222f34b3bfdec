-- Status changes as durable facts (status_event, written with the status by ingest) and the
-- outbox's ordering key and claiming process (a restart releases a dead process's claims).
-- AlterTable
ALTER TABLE "delivery" ADD COLUMN "claimed_by_process" TEXT;
ALTER TABLE "delivery" ADD COLUMN "order_key" TEXT;

-- CreateTable
CREATE TABLE "status_event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "monitor_id" INTEGER NOT NULL,
    "from_status" TEXT NOT NULL,
    "to_status" TEXT NOT NULL,
    "error" TEXT NOT NULL DEFAULT '',
    "at" DATETIME NOT NULL,
    "processed_at" DATETIME,
    CONSTRAINT "status_event_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "status_event_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "status_event_processed_at_id_idx" ON "status_event"("processed_at", "id");

-- CreateIndex
CREATE INDEX "status_event_monitor_id_id_idx" ON "status_event"("monitor_id", "id");

-- CreateIndex
CREATE INDEX "delivery_order_key_id_idx" ON "delivery"("order_key", "id");

