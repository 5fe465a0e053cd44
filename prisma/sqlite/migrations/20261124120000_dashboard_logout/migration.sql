-- AlterTable
ALTER TABLE "User" ADD COLUMN "sessionsEndedAt" DATETIME;


