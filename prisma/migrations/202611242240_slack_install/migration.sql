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

-- Publishing calls held for a Slack button (pending -> done | cancelled, once), kept until expiry.
-- CreateTable
CREATE TABLE "slack_pending_call" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspace_id" INTEGER NOT NULL,
    "team_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "message_ts" TEXT,
    "tool_name" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "requested_by_user_id" INTEGER,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "outcome" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME NOT NULL,
    CONSTRAINT "slack_pending_call_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "slack_pending_call_requested_by_user_id_fkey" FOREIGN KEY ("requested_by_user_id") REFERENCES "user" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "slack_pending_call_workspace_id_idx" ON "slack_pending_call"("workspace_id");

-- CreateIndex
CREATE INDEX "slack_pending_call_expires_at_idx" ON "slack_pending_call"("expires_at");
