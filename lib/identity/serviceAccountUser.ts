/** The service account a GitTrack acts as when neither it nor the deployment names one. */
export const fallbackServiceAccount = 'default';

// A service account name is a DNS subdomain. Anything else would not name a service account: the
// API server would treat `system:serviceaccount:ns:a:b` as a plain user without the account's groups.
const dnsSubdomain = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const isServiceAccountName = (name: string): boolean => dnsSubdomain.test(name);

/**
 * The user name of a service account. Impersonating it, the API server adds the account's groups
 * (`system:serviceaccounts`, `system:serviceaccounts:<namespace>`, `system:authenticated`) itself.
 */
export const serviceAccountUser = (namespace: string, name: string): string =>
  `system:serviceaccount:${namespace}:${name}`;
