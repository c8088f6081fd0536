/**
 * Requests in flight at once against the API server: the connections of one client, the objects
 * one reconcile applies at once, and the CLI's `--concurrency`. One value, measured in bench/.
 */
export const defaultConcurrency = 16;
