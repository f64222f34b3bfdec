-- One-time links that let a reader with an allowed e-mail domain into a protected status page.
CREATE TABLE "status_page_access_token" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "page_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "status_page_access_token_token_hash_key" ON "status_page_access_token"("token_hash");

-- CreateIndex
CREATE INDEX "status_page_access_token_page_id_email_idx" ON "status_page_access_token"("page_id", "email");

-- Wrong passwords per page and client, for the unlock throttle.
CREATE TABLE "status_page_unlock_failure" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "page_id" INTEGER NOT NULL,
    "client" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "status_page_unlock_failure_page_id_client_created_at_idx" ON "status_page_unlock_failure"("page_id", "client", "created_at");
