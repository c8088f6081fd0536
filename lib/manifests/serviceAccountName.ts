/** The service account a GitTrack acts as when neither it nor the deployment names one. */
export const fallbackServiceAccount = 'default';

// A service account name is a DNS subdomain. Anything else would not name a service account: the
// API server would treat `system:serviceaccount:ns:a:b` as a plain user without the account's groups.
const dnsSubdomain = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const isServiceAccountName = (name: string): boolean => dnsSubdomain.test(name);
