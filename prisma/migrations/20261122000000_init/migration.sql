-- CreateTable
CREATE TABLE "workspace" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'free',
    "paid_until" INTEGER,
    "ends_at" INTEGER,
    "limits" TEXT NOT NULL DEFAULT '{}',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "user" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" INTEGER NOT NULL,
    "workspace_id" INTEGER,
    "expires_at" DATETIME NOT NULL,
    CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "magic_link_token" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "membership" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "membership_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "membership_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "invitation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "token_hash" TEXT NOT NULL,
    "invited_by_id" INTEGER,
    "expires_at" DATETIME NOT NULL,
    "accepted_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "invitation_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "monitor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "periodicity" TEXT NOT NULL,
    "timeout" INTEGER NOT NULL DEFAULT 45000,
    "degraded_at" INTEGER,
    "retry" INTEGER NOT NULL DEFAULT 3,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "public" BOOLEAN NOT NULL DEFAULT false,
    "regions" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'unknown',
    "otel_endpoint" TEXT,
    "otel_headers" TEXT NOT NULL DEFAULT '[]',
    "url" TEXT,
    "method" TEXT NOT NULL DEFAULT 'GET',
    "body" TEXT NOT NULL DEFAULT '',
    "follow_redirects" BOOLEAN NOT NULL DEFAULT true,
    "headers" TEXT NOT NULL DEFAULT '[]',
    "status_code_assertions" TEXT NOT NULL DEFAULT '[]',
    "body_assertions" TEXT NOT NULL DEFAULT '[]',
    "header_assertions" TEXT NOT NULL DEFAULT '[]',
    "uri" TEXT,
    "record_assertions" TEXT NOT NULL DEFAULT '[]',
    "grpc_service" TEXT NOT NULL DEFAULT '',
    "grpc_tls" TEXT NOT NULL DEFAULT 'verify',
    "grpc_metadata" TEXT NOT NULL DEFAULT '[]',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "monitor_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "incident" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "monitor_id" INTEGER NOT NULL,
    "started_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" DATETIME,
    "acknowledged_by_id" INTEGER,
    "resolved_at" DATETIME,
    "resolved_by_id" INTEGER,
    "auto_resolved" BOOLEAN NOT NULL DEFAULT false,
    "during_maintenance" BOOLEAN NOT NULL DEFAULT false,
    "error_message" TEXT,
    "failing_regions" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "incident_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "incident_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "status_page" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "homepage_url" TEXT,
    "contact_url" TEXT,
    "icon" TEXT,
    "custom_domain" TEXT,
    "access_type" TEXT NOT NULL DEFAULT 'public',
    "password_hash" TEXT,
    "auth_email_domains" TEXT NOT NULL DEFAULT '[]',
    "allowed_ip_ranges" TEXT NOT NULL DEFAULT '',
    "theme" TEXT NOT NULL DEFAULT 'default',
    "custom_theme" TEXT NOT NULL DEFAULT '{}',
    "default_locale" TEXT NOT NULL DEFAULT 'en',
    "locales" TEXT NOT NULL DEFAULT '[]',
    "allow_index" BOOLEAN NOT NULL DEFAULT true,
    "published" BOOLEAN NOT NULL DEFAULT true,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "status_page_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "component_group" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "component_group_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "component_group_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_page" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "page_component" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "monitor_id" INTEGER,
    "name" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "order" INTEGER NOT NULL DEFAULT 0,
    "group_id" INTEGER,
    "group_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "page_component_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "page_component_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_page" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "page_component_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "page_component_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "component_group" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "status_report" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "resolved_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "status_report_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "status_report_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_page" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "status_report_component" (
    "report_id" INTEGER NOT NULL,
    "component_id" INTEGER NOT NULL,

    PRIMARY KEY ("report_id", "component_id"),
    CONSTRAINT "status_report_component_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "status_report" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "status_report_component_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "page_component" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "status_report_update" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "report_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "date" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "notify" BOOLEAN NOT NULL DEFAULT false,
    "notified" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "status_report_update_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "status_report" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "status_report_update_impact" (
    "update_id" INTEGER NOT NULL,
    "component_id" INTEGER NOT NULL,
    "impact" TEXT NOT NULL,

    PRIMARY KEY ("update_id", "component_id"),
    CONSTRAINT "status_report_update_impact_update_id_fkey" FOREIGN KEY ("update_id") REFERENCES "status_report_update" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "status_report_update_impact_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "page_component" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "maintenance" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "from" DATETIME NOT NULL,
    "to" DATETIME NOT NULL,
    "notify" BOOLEAN NOT NULL DEFAULT false,
    "notified" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "maintenance_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "maintenance_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_page" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "maintenance_component" (
    "maintenance_id" INTEGER NOT NULL,
    "component_id" INTEGER NOT NULL,

    PRIMARY KEY ("maintenance_id", "component_id"),
    CONSTRAINT "maintenance_component_maintenance_id_fkey" FOREIGN KEY ("maintenance_id") REFERENCES "maintenance" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "maintenance_component_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "page_component" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "page_subscriber" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "page_id" INTEGER NOT NULL,
    "email" TEXT,
    "webhook_url" TEXT,
    "component_ids" TEXT NOT NULL DEFAULT '[]',
    "token_hash" TEXT NOT NULL,
    "confirmed_at" DATETIME,
    "unsubscribed_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "page_subscriber_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "page_subscriber_page_id_fkey" FOREIGN KEY ("page_id") REFERENCES "status_page" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "notification_channel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "provider_type" TEXT NOT NULL,
    "config" TEXT NOT NULL DEFAULT '{}',
    "secrets" TEXT NOT NULL DEFAULT '{}',
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "notification_channel_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "notification_channel_monitor" (
    "channel_id" INTEGER NOT NULL,
    "monitor_id" INTEGER NOT NULL,

    PRIMARY KEY ("channel_id", "monitor_id"),
    CONSTRAINT "notification_channel_monitor_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "notification_channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "notification_channel_monitor_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "private_location" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'unknown',
    "last_seen_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "private_location_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "private_location_monitor" (
    "private_location_id" INTEGER NOT NULL,
    "monitor_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unknown',

    PRIMARY KEY ("private_location_id", "monitor_id"),
    CONSTRAINT "private_location_monitor_private_location_id_fkey" FOREIGN KEY ("private_location_id") REFERENCES "private_location" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "private_location_monitor_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "start" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "created_by_id" INTEGER,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "api_key_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "api_key_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "user" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "oauth_client" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "client_name" TEXT NOT NULL,
    "redirect_uris" TEXT NOT NULL DEFAULT '[]',
    "is_metadata_document" BOOLEAN NOT NULL DEFAULT false,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "oauth_authorization_code" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "code_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "workspace_id" INTEGER NOT NULL,
    "scope" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_authorization_code_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_client" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "oauth_authorization_code_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "oauth_authorization_code_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "oauth_grant" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "client_id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "workspace_id" INTEGER NOT NULL,
    "scope" TEXT NOT NULL,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_grant_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_client" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "oauth_grant_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "oauth_grant_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "oauth_token" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "grant_id" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "revoked_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_token_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth_grant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "workspace_id" INTEGER NOT NULL,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "actor_user_id" INTEGER,
    "action" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "changed_fields" TEXT NOT NULL DEFAULT '[]',
    "before" TEXT,
    "after" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "audit_log_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "workspace_slug_key" ON "workspace"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");

-- CreateIndex
CREATE INDEX "session_user_id_idx" ON "session"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "magic_link_token_token_hash_key" ON "magic_link_token"("token_hash");

-- CreateIndex
CREATE INDEX "magic_link_token_email_idx" ON "magic_link_token"("email");

-- CreateIndex
CREATE UNIQUE INDEX "membership_workspace_id_user_id_key" ON "membership"("workspace_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "invitation_token_hash_key" ON "invitation"("token_hash");

-- CreateIndex
CREATE INDEX "invitation_workspace_id_idx" ON "invitation"("workspace_id");

-- CreateIndex
CREATE INDEX "monitor_workspace_id_idx" ON "monitor"("workspace_id");

-- CreateIndex
CREATE INDEX "incident_workspace_id_monitor_id_idx" ON "incident"("workspace_id", "monitor_id");

-- CreateIndex
CREATE UNIQUE INDEX "status_page_slug_key" ON "status_page"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "status_page_custom_domain_key" ON "status_page"("custom_domain");

-- CreateIndex
CREATE INDEX "status_page_workspace_id_idx" ON "status_page"("workspace_id");

-- CreateIndex
CREATE INDEX "component_group_page_id_idx" ON "component_group"("page_id");

-- CreateIndex
CREATE INDEX "page_component_page_id_idx" ON "page_component"("page_id");

-- CreateIndex
CREATE INDEX "status_report_page_id_idx" ON "status_report"("page_id");

-- CreateIndex
CREATE INDEX "status_report_update_report_id_idx" ON "status_report_update"("report_id");

-- CreateIndex
CREATE INDEX "maintenance_page_id_idx" ON "maintenance"("page_id");

-- CreateIndex
CREATE UNIQUE INDEX "page_subscriber_token_hash_key" ON "page_subscriber"("token_hash");

-- CreateIndex
CREATE INDEX "page_subscriber_page_id_idx" ON "page_subscriber"("page_id");

-- CreateIndex
CREATE INDEX "notification_channel_workspace_id_idx" ON "notification_channel"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "private_location_token_hash_key" ON "private_location"("token_hash");

-- CreateIndex
CREATE INDEX "private_location_workspace_id_idx" ON "private_location"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE INDEX "api_key_workspace_id_idx" ON "api_key"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_authorization_code_code_hash_key" ON "oauth_authorization_code"("code_hash");

-- CreateIndex
CREATE INDEX "oauth_grant_client_id_user_id_idx" ON "oauth_grant"("client_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_token_token_hash_key" ON "oauth_token"("token_hash");

-- CreateIndex
CREATE INDEX "oauth_token_grant_id_idx" ON "oauth_token"("grant_id");

-- CreateIndex
CREATE INDEX "audit_log_workspace_id_created_at_idx" ON "audit_log"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_log_workspace_id_entity_type_entity_id_idx" ON "audit_log"("workspace_id", "entity_type", "entity_id");

