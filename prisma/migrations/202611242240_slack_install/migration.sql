-- The chat-workspace agent: one Slack team <-> one workspace, bot token sealed (vault).
-- CreateTable
CREATE TABLE "slack_install" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "team_id" TEXT NOT NULL,
    "team_name" TEXT NOT NULL,
    "bot_user_id" TEXT NOT NULL,
    "bot_token" TEXT NOT NULL,
    "installed_by_user_id" INTEGER,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "slack_install_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "slack_install_installed_by_user_id_fkey" FOREIGN KEY ("installed_by_user_id") REFERENCES "user" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "slack_install_workspace_id_key" ON "slack_install"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "slack_install_team_id_key" ON "slack_install"("team_id");
