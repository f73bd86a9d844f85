/** Plans and their monthly live-job quotas (../shared/CONTRACT.md "Plans"). */
import type { Plan } from '../storage/types.js';

export interface PlanRules {
  /** Live jobs per calendar month (UTC); null is unlimited. Test jobs never count. */
  monthlyJobs: number | null;
  /** Receipts end with "Printed with Printwire". */
  footer: boolean;
  webhooks: boolean;
}

export const PLAN_RULES: Record<Plan, PlanRules> = {
  free: { monthlyJobs: 1_000, footer: true, webhooks: false },
  starter: { monthlyJobs: 10_000, footer: false, webhooks: false },
  business: { monthlyJobs: 100_000, footer: false, webhooks: true },
  enterprise: { monthlyJobs: null, footer: false, webhooks: true },
};
