-- A provider's display name, what merchants call it (the dashboard shows it)
ALTER TABLE "Provider" ADD COLUMN "name" TEXT;
