/**
 * The user name of a service account. Impersonating it, the API server adds the account's groups
 * (`system:serviceaccounts`, `system:serviceaccounts:<namespace>`, `system:authenticated`) itself.
 */
export const serviceAccountUser = (namespace: string, name: string): string =>
  `system:serviceaccount:${namespace}:${name}`;
