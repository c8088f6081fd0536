import { ConfigError } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import type { DeploymentConfig } from '../settings/deploymentModes';
import { executeMigration, predictedOutcomes, releasedObjects, type TrackOutcome } from './executeMigration';
import { type MigrationPlan, planMigration } from './planMigration';

export interface MigrateOptions {
  config: DeploymentConfig;
  /** Only the Faros GitTracks of this namespace. */
  namespace?: string | undefined;
  /** Faros GitTracks (`GitTrack/NS/NAME`) to promote to ClusterGitTracks; any other is left alone. */
  promote?: readonly string[] | undefined;
  /** Where promoted tracks' credentials go (default LIGHTKEEPER_LEASE_NAMESPACE, else lightkeeper-system). */
  reconcilerNamespace?: string | undefined;
  /** Plan and print, write nothing. */
  dryRun?: boolean;
  now?: Date;
  concurrency?: number;
  signal?: AbortSignal;
}

export interface MigrationReport {
  dryRun: boolean;
  plan: MigrationPlan;
  /** Per track and child: what happened (or, in a dry run, what would). */
  tracks: TrackOutcome[];
  deleteCommands: string[];
  leftInPlace: string[];
  interrupted: boolean;
}

/** True when everything planned was migrated and nothing of Faros has to stay. */
export const migratedEverything = (r: MigrationReport) => r.leftInPlace.length === 0 && !r.interrupted;

/**
 * `lightkeeper migrate faros`: plan from the live cluster, then (unless a dry run) refuse while a
 * Faros controller may still run, else carry the plan out. Runs with the caller's identity.
 */
export async function migrateFaros(client: KubeClient, options: MigrateOptions): Promise<MigrationReport> {
  const plan = await planMigration(client, options);
  if (options.dryRun) {
    const tracks = predictedOutcomes(plan);
    return { dryRun: true, plan, tracks, ...releasedObjects(plan, tracks), interrupted: false };
  }
  if (plan.activity.length > 0) {
    throw new ConfigError(
      `refusing to migrate while a Faros controller may be running: ${plan.activity.map((a) => a.what).join('; ')}`,
      { subject: 'faros', hint: `stop it first: ${plan.activity.map((a) => a.stop).join('; ')}` },
    );
  }
  const result = await executeMigration(client, plan, options);
  return { dryRun: false, plan, ...result };
}
