-- Status page subscribers: confirmation re-send rate limit, webhook signing secret, one row per
-- (page, e-mail); maintenance start/end notices recorded once.
-- AlterTable
ALTER TABLE "maintenance" ADD COLUMN "end_notice_at" DATETIME;
ALTER TABLE "maintenance" ADD COLUMN "start_notice_at" DATETIME;

-- AlterTable
ALTER TABLE "page_subscriber" ADD COLUMN "confirm_sent_at" DATETIME;
ALTER TABLE "page_subscriber" ADD COLUMN "secret" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "page_subscriber_page_id_email_key" ON "page_subscriber"("page_id", "email");

