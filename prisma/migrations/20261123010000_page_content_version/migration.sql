-- A status site in another process (compose runs it alone) learns that a public page changed
-- from this one row's version and drops its render cache.
-- CreateTable
CREATE TABLE "page_content_version" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "version" INTEGER NOT NULL DEFAULT 0
);
