import { createHash } from 'node:crypto';
import { identityKey, type ObjectRef } from '../manifests';

const maxLength = 253;
const hashLength = 10;

/**
 * The tracking object's name for a child: readable (`configmap-web-…`), a valid DNS-1123
 * subdomain of at most 253 characters, and unique per group/kind/namespace/name thanks to a
 * hash of the full identity (so `Ingress.networking.k8s.io/web` and `Ingress.extensions/web`,
 * or names that sanitize alike, never collide).
 */
export function trackingObjectName(ref: Pick<ObjectRef, 'group' | 'kind' | 'namespace' | 'name'>): string {
  const hash = createHash('sha256').update(identityKey(ref)).digest('hex').slice(0, hashLength);
  const readable = `${ref.kind}-${ref.name}`
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/[.-]{2,}/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, maxLength - hashLength - 1)
    .replace(/[^a-z0-9]+$/, '');
  return readable ? `${readable}-${hash}` : hash;
}
