-- AlterTable
ALTER TABLE "User" ADD COLUMN     "sessionsEndedAt" TIMESTAMP(3);


