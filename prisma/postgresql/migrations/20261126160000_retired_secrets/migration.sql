-- Every secret a rotation replaced signs for its 24 hours, however many rotations follow: a list.
ALTER TABLE "WebhookEndpoint" ADD COLUMN "retiredSecrets" TEXT NOT NULL DEFAULT '[]';

UPDATE "WebhookEndpoint" SET "retiredSecrets" = json_build_array(json_build_object('sealed', "previousSecretEnc", 'until', (extract(epoch from "previousSecretUntil") * 1000)::bigint))::text WHERE "previousSecretEnc" IS NOT NULL AND "previousSecretUntil" IS NOT NULL;

ALTER TABLE "WebhookEndpoint" DROP COLUMN "previousSecretEnc",
DROP COLUMN "previousSecretUntil";
