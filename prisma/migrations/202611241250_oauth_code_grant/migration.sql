-- The grant an authorization code was issued for: presenting a used code again revokes it
-- (RFC 6749 4.1.2).
-- AlterTable
ALTER TABLE "oauth_authorization_code" ADD COLUMN "grant_id" INTEGER;
