-- Status page subscribers: confirmation re-send rate limit, webhook signing secret, one row per
-- (page, e-mail); maintenance start/end notices recorded once; outbox rows claimed per run.
-- AlterTable
ALTER TABLE "maintenance" ADD COLUMN "end_notice_at" DATETIME;
ALTER TABLE "maintenance" ADD COLUMN "start_notice_at" DATETIME;

-- AlterTable
ALTER TABLE "page_subscriber" ADD COLUMN "confirm_sent_at" DATETIME;
ALTER TABLE "page_subscriber" ADD COLUMN "secret" TEXT;

-- AlterTable
ALTER TABLE "delivery" ADD COLUMN "claimed_by" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "page_subscriber_page_id_email_key" ON "page_subscriber"("page_id", "email");

-- CreateIndex
CREATE INDEX "delivery_claimed_by_idx" ON "delivery"("claimed_by");

