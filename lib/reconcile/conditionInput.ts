/** What conclude() writes for each condition of a track's status (lib/reconcile/conditions.ts words them). */
export type ConditionType = 'Ready' | 'Healthy' | 'Fetched' | 'Parsed' | 'Applied' | 'Pruned' | 'Pinned';

export interface ConditionInput {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

export type Conditions = Partial<Record<ConditionType, ConditionInput>>;
