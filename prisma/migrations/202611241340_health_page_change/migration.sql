-- Which status page changed, and when: a verb that changes what a page shows moves its row
-- (markPageChanged, inside its transaction); a status site in another process reads the rows
-- past the last sequence it saw and drops only those pages' cached views. Replaces the single
-- process-wide version row.
-- DropTable
DROP TABLE "page_content_version";

-- CreateTable
CREATE TABLE "page_change" (
    "page_id" INTEGER NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL
);

-- CreateIndex
CREATE INDEX "page_change_seq_idx" ON "page_change"("seq");
