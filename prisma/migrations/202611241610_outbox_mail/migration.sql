-- Local outbox: outside production with no mail transport every mail is kept here (Settings ->
-- Mail) instead of being sent. workspace_id null = a sign-in mail (before any workspace).
-- CreateTable
CREATE TABLE "outbox_mail" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "outbox_mail_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "outbox_mail_workspace_id_id_idx" ON "outbox_mail"("workspace_id", "id");

-- CreateIndex
CREATE INDEX "outbox_mail_to_id_idx" ON "outbox_mail"("to", "id");
