-- Delivery retention: find a workspace's old finished outbox rows by index, and delete their
-- attempt rows (the FK's child key) without scanning the whole attempt log.
-- CreateIndex
CREATE INDEX "delivery_workspace_id_status_created_at_idx" ON "delivery"("workspace_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "delivery_attempt_delivery_id_idx" ON "delivery_attempt"("delivery_id");

