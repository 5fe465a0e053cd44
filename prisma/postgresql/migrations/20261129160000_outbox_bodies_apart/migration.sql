-- A large outbox message's body (a catalog's menus) is kept apart, so that claiming, renewing and
-- releasing its row never rewrite or return it.
ALTER TABLE "OutboxMessage" ADD COLUMN "bodyApart" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "OutboxBody" (
    "id" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "OutboxBody_pkey" PRIMARY KEY ("id")
);

-- AddForeignKey
ALTER TABLE "OutboxBody" ADD CONSTRAINT "OutboxBody_id_fkey" FOREIGN KEY ("id") REFERENCES "OutboxMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
