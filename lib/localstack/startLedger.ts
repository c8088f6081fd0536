import { ConfigError, isConflict } from '../errors';
import type { KubeClient } from '../kube/kubeClient';
import { startRunLabel } from '../manifests/metadataKeys';

interface CreatedBody {
  kind: string;
  metadata: { name: string; namespace?: string; uid: string; creationTimestamp: string };
}

/** One object a `lightkeeper start` run created, as the server answered the create. */
export interface CreatedObject {
  /** `Kind/name` or `Kind/namespace/name`. */
  label: string;
  kind: string;
  name: string;
  namespace?: string | undefined;
  path: string;
  uid: string;
  creationTimestamp: string;
}

/**
 * What one `lightkeeper start` run created in a cluster, in order. Objects are only ever created
 * here (POST), never applied: an object that exists already is a refusal, so a run cannot change
 * an object of someone else's. Each carries the run's label.
 */
export class StartLedger {
  readonly created: CreatedObject[] = [];

  constructor(readonly runId: string) {}

  /** POSTs `body` (labelled with the run) to the collection `collectionPath`. */
  async create<T extends object>(
    client: KubeClient,
    collectionPath: string,
    body: T & {
      kind: string;
      metadata: { name: string; namespace?: string; labels?: Record<string, string> };
    },
  ): Promise<T & CreatedBody> {
    const labelled = {
      ...body,
      metadata: { ...body.metadata, labels: { ...body.metadata.labels, [startRunLabel]: this.runId } },
    };
    const ns = body.metadata.namespace;
    const label = `${body.kind}/${ns ? `${ns}/` : ''}${body.metadata.name}`;
    let live: T & CreatedBody;
    try {
      live = await client.request<T & CreatedBody>('POST', collectionPath, { body: labelled });
    } catch (e) {
      if (!isConflict(e)) throw e;
      throw new ConfigError(
        `${label} already exists: lightkeeper start creates only new objects and left it unchanged`,
        { subject: label, cause: e },
      );
    }
    this.created.push({
      label,
      kind: body.kind,
      name: body.metadata.name,
      namespace: ns,
      path: `${collectionPath}/${encodeURIComponent(body.metadata.name)}`,
      uid: live.metadata.uid,
      creationTimestamp: live.metadata.creationTimestamp,
    });
    return live;
  }

  /** The server's time of the run's first create; nothing older is the run's. */
  get startedAt(): string | undefined {
    return this.created[0]?.creationTimestamp;
  }

  /**
   * Whether an object is the run's own: created by it, or created after its first create (by its
   * tracks). An object as old as the run's first create, to the second, is not.
   */
  owns(object: { metadata: { uid: string; creationTimestamp?: string } }): boolean {
    if (this.created.some((c) => c.uid === object.metadata.uid)) return true;
    const started = this.startedAt;
    const created = object.metadata.creationTimestamp;
    return started !== undefined && created !== undefined && Date.parse(created) > Date.parse(started);
  }
}
