-- The all-in-one process runs a built-in probe for each workspace's "Local" private location.
ALTER TABLE "private_location" ADD COLUMN "built_in" BOOLEAN NOT NULL DEFAULT false;
