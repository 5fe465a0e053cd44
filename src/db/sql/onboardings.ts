// An onboarding that takes over from earlier ones of the same merchant account (the merchant
// authorized the provider again after revoking it): what went through them goes through it.
import { placeholders, type Step } from '../statements.js';

/** Their locations (a POS onboarding's) and DSP stores (a DSP onboarding's) now go through `to`. */
export const moveLocations = (from: string[], to: string): Step => ({
  sql: `UPDATE "Location" SET "onboardingId" = ? WHERE "onboardingId" IN (${placeholders(from)})`,
  args: [to, ...from],
});
export const moveStores = (from: string[], to: string): Step => ({
  sql: `UPDATE "DspConnection" SET "onboardingId" = ? WHERE "onboardingId" IN (${placeholders(from)})`,
  args: [to, ...from],
});

/** Their messages that wait (or are still to send) go out now, with `to`'s token. */
export const resumeMessages = (from: string[], to: string, now: Date): Step => ({
  sql: `UPDATE "OutboxMessage" SET "onboardingId" = ?, "status" = 'pending', "nextAttemptAt" = ? WHERE "onboardingId" IN (${placeholders(from)}) AND "status" IN ('waiting', 'pending')`,
  args: [to, now, ...from],
});

/** They are replaced by the onboarding that took over (reauthorization_required ones only). */
export const markReplaced = (ids: string[], now: Date): Step => ({
  sql: `UPDATE "Onboarding" SET "status" = 'replaced', "updatedAt" = ? WHERE "id" IN (${placeholders(ids)}) AND "status" = 'reauthorization_required' RETURNING *`,
  args: [now, ...ids],
});

export const onboardingById = (id: string): Step => ({ sql: 'SELECT * FROM "Onboarding" WHERE "id" = ?', args: [id] });

/** The conditions of an update that applies only to an active onboarding, or only to one that is not. */
export const onboardingIsActive: Step = { sql: '"status" = ?', args: ['active'] };
export const onboardingIsNotActive: Step = { sql: '"status" <> ?', args: ['active'] };
