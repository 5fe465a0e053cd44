-- An event provider's webhook signed by its body alone, kept 24 hours by its digest: a replay of
-- the same bytes is answered as the first was and applied no more.
CREATE TABLE "WebhookReplay" (
    "id" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookReplay_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookReplay_createdAt_idx" ON "WebhookReplay"("createdAt");
