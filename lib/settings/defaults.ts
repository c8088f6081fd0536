/**
 * Requests in flight at once against the API server: the connections of one client, the objects
 * one reconcile applies at once, and the CLI's `--concurrency`. One value, measured in bench/.
 */
export const defaultConcurrency = 16;

/** How long a track lease holds without renewal (LIGHTKEEPER_LEASE_TTL_SECONDS). */
export const defaultLeaseTtlSeconds = 60;

/** Tracks the sweep starts at once (SWEEP_CONCURRENCY). */
export const defaultSweepConcurrency = 10;
