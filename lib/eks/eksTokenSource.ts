import { type EksToken, type EksTokenOptions, eksToken } from './eksToken';

/**
 * The current token for one cluster, presigned again once the one in hand reaches its refresh time
 * (14 of its 15 minutes). Asked before every request, so a client kept in a warm container, or a
 * reconcile that runs for 15 minutes, never sends an expired token. Presigning is local (no request);
 * the credential provider caches and renews the role's credentials itself.
 */
export class EksTokenSource {
  private current: Promise<EksToken> | undefined;

  constructor(
    private readonly options: Omit<EksTokenOptions, 'signingDate'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async token(): Promise<string> {
    return (await this.fresh()).token;
  }

  /** The token in use, presigned anew when due (or when the last attempt failed). */
  async fresh(): Promise<EksToken> {
    const pending = this.current;
    if (pending) {
      const held = await pending.catch(() => undefined);
      if (held && this.now() < held.refreshAt) return held;
      // Another caller already started the next one while this one waited.
      if (this.current !== pending) return this.fresh();
    }
    const next = eksToken({ ...this.options, signingDate: this.now() });
    this.current = next;
    return next;
  }
}
