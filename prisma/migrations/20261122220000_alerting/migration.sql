-- Incidents (one open per monitor) and the durable delivery outbox with its attempt log.
-- AlterTable
ALTER TABLE "incident" ADD COLUMN "open_monitor_id" INTEGER;

-- CreateTable
CREATE TABLE "delivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "channel_id" INTEGER,
    "incident_id" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" DATETIME,
    "last_error" TEXT,
    "sent_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "delivery_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "delivery_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "notification_channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "delivery_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incident" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "delivery_attempt" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "delivery_id" INTEGER NOT NULL,
    "workspace_id" INTEGER NOT NULL,
    "channel_id" INTEGER,
    "attempt" INTEGER NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "status" INTEGER NOT NULL,
    "error" TEXT,
    "event" TEXT NOT NULL DEFAULT '',
    "provider" TEXT NOT NULL DEFAULT '',
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "delivery_attempt_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "delivery" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "delivery_attempt_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "notification_channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "delivery_dedupe_key_key" ON "delivery"("dedupe_key");

-- CreateIndex
CREATE INDEX "delivery_status_next_attempt_at_idx" ON "delivery"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "delivery_channel_id_idx" ON "delivery"("channel_id");

-- CreateIndex
CREATE INDEX "delivery_attempt_channel_id_at_idx" ON "delivery_attempt"("channel_id", "at");

-- CreateIndex
CREATE INDEX "delivery_attempt_workspace_id_provider_at_idx" ON "delivery_attempt"("workspace_id", "provider", "at");

-- CreateIndex
CREATE UNIQUE INDEX "incident_open_monitor_id_key" ON "incident"("open_monitor_id");

