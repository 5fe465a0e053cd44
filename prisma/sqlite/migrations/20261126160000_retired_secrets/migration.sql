-- Every secret a rotation replaced signs for its 24 hours, however many rotations follow: a list.
ALTER TABLE "WebhookEndpoint" ADD COLUMN "retiredSecrets" TEXT NOT NULL DEFAULT '[]';

UPDATE "WebhookEndpoint" SET "retiredSecrets" = '[{"sealed":"' || "previousSecretEnc" || '","until":' || CASE WHEN typeof("previousSecretUntil") = 'integer' THEN "previousSecretUntil" ELSE CAST(ROUND((julianday("previousSecretUntil") - 2440587.5) * 86400000) AS INTEGER) END || '}]' WHERE "previousSecretEnc" IS NOT NULL AND "previousSecretUntil" IS NOT NULL;

ALTER TABLE "WebhookEndpoint" DROP COLUMN "previousSecretEnc";
ALTER TABLE "WebhookEndpoint" DROP COLUMN "previousSecretUntil";
