import { describe, expect, it } from 'vitest';
import { generatePki } from '../../../lib/controlplane/pki';
import { tlsConnectOptions } from '../../../lib/kube/tlsConnect';

describe('tlsConnectOptions', () => {
  it('hands the pool one secure context instead of the PEMs, keeping the verification setting', async () => {
    const { ca, admin } = await generatePki();
    const options = tlsConnectOptions({
      ca: ca.cert,
      cert: admin.cert,
      key: admin.key,
      rejectUnauthorized: true,
    });
    expect(Object.keys(options).sort()).toEqual(['rejectUnauthorized', 'secureContext']);
    expect(options.rejectUnauthorized).toBe(true);
  });

  it('passes credentials no context can be made from on unchanged, to fail at connect as before', () => {
    const tls = { ca: 'not a certificate', key: 'not a key', rejectUnauthorized: true };
    expect(tlsConnectOptions(tls)).toBe(tls);
  });
});
