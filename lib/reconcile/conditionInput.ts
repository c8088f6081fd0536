/** What conclude() writes for each condition of a track's status (lib/reconcile/conditions.ts words them). */
export type ConditionType = 'Ready' | 'Healthy' | 'Fetched' | 'Parsed' | 'Applied' | 'Pruned' | 'Pinned';

export interface ConditionInput {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** One condition's words (lib/reconcile/conditionTexts.ts). */
export const condition = (
  status: ConditionInput['status'],
  reason: string,
  message: string,
): ConditionInput => ({ status, reason, message });

export type Conditions = Partial<Record<ConditionType, ConditionInput>>;
