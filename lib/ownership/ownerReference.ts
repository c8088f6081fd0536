import { OwnershipError } from '../errors';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller: true;
  blockOwnerDeletion: true;
}

/** An object that can own another, with where it lives. */
export interface Owner {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** Undefined for a cluster-scoped owner. */
  namespace?: string | undefined;
}

/** Where the dependent lives: undefined for a cluster-scoped dependent. */
export interface Dependent {
  namespace?: string | undefined;
  /** Names the dependent in errors, e.g. `GitTrackObject.lightkeeper.dev/shop/configmap-web`. */
  subject: string;
}

/**
 * The controller owner reference for `dependent`, refusing every shape the garbage collector
 * treats as dangling or invalid (see shared/background/gc-semantics.md): a namespaced owner is
 * only legal for a dependent in the same namespace; a cluster-scoped owner is always legal.
 * Every owner reference lightkeeper writes is built here.
 */
export function controllerReference(owner: Owner, dependent: Dependent): OwnerReference {
  if (owner.namespace !== undefined) {
    if (dependent.namespace === undefined) {
      throw new OwnershipError(
        `cluster-scoped ${dependent.subject} cannot be owned by ${owner.kind} ${owner.namespace}/${owner.name}: a cluster-scoped object may only have cluster-scoped owners`,
        { subject: dependent.subject },
      );
    }
    if (dependent.namespace !== owner.namespace) {
      throw new OwnershipError(
        `${dependent.subject} in namespace ${dependent.namespace} cannot be owned by ${owner.kind} ${owner.namespace}/${owner.name}: namespaced owners must be in the dependent's namespace`,
        { subject: dependent.subject },
      );
    }
  }
  if (!owner.uid)
    throw new OwnershipError(`owner ${owner.kind}/${owner.name} has no uid`, { subject: dependent.subject });
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.name,
    uid: owner.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
