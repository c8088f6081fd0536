import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../lib/manifests';

const object = (apiVersion: string, kind: string, metadata: string) =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n${metadata}`;
const parse = (content: string) => parseManifests([{ path: 'n.yaml', content }]);
const refusals = (content: string) => parse(content).errors.map((e) => e.message);
const configMap = (name: string, namespace?: string) =>
  object(
    'v1',
    'ConfigMap',
    `  name: ${JSON.stringify(name)}\n${namespace === undefined ? '' : `  namespace: ${JSON.stringify(namespace)}\n`}`,
  );

describe('names are checked before any request', () => {
  it.each([
    ['..', "may not be '..'"],
    ['.', "may not be '.'"],
    ['a/b', "may not contain '/'"],
    ['../kube-system', "may not contain '/'"],
    ['50%', "may not contain '%'"],
    ['%2F/x', "may not contain '/', may not contain '%'"],
  ])('refuses the name %j, which no kind allows, at its line', (name, reason) => {
    expect(refusals(configMap(name))).toEqual([
      `n.yaml:4: metadata.name ${JSON.stringify(name)} in ConfigMap ${reason}`,
    ]);
  });

  it('refuses a name longer than 253 characters, outside RBAC', () => {
    const long = 'a'.repeat(254);
    expect(refusals(configMap(long))).toEqual([
      `n.yaml:4: metadata.name "${'a'.repeat(60)}…" in ConfigMap must be no more than 253 characters`,
    ]);
    expect(parse(configMap('a'.repeat(253))).errors).toEqual([]);
  });

  it('keeps names that only some kinds allow for the server to judge', () => {
    const rbac = 'rbac.authorization.k8s.io/v1';
    const { manifests, errors } = parse(
      [
        object(rbac, 'ClusterRole', '  name: system:controller:x\n'),
        object(rbac, 'ClusterRoleBinding', `  name: ${'b'.repeat(300)}\n`),
        object('networking.k8s.io/v1', 'IPAddress', '  name: 2001:db8::1\n'),
        object('v1', 'ConfigMap', '  name: Upper_Case and spaces\n'),
        object('certificates.k8s.io/v1beta1', 'ClusterTrustBundle', '  name: example.com:signer:abc\n'),
      ].join('---\n'),
    );
    expect(errors).toEqual([]);
    expect(manifests).toHaveLength(5);
  });

  it.each([
    ['Shop', 'must be a DNS-1123 label'],
    ['a.b', 'must be a DNS-1123 label'],
    ['..', 'must be a DNS-1123 label'],
    ['a/b', 'must be a DNS-1123 label'],
    ['-a', 'must be a DNS-1123 label'],
    ['x'.repeat(64), 'must be no more than 63 characters'],
  ])('refuses the namespace %j at its line', (namespace, reason) => {
    const [message] = refusals(configMap('ok', namespace));
    expect(message).toMatch(/^n\.yaml:5: metadata\.namespace ".*" in ConfigMap /);
    expect(message).toContain(reason);
  });

  it('accepts DNS-1123 labels, an empty namespace and no namespace', () => {
    for (const namespace of ['shop', 'a-1', '0', 'x'.repeat(63), '', undefined])
      expect(parse(configMap('ok', namespace)).errors).toEqual([]);
  });

  it('refuses a bad item of a List and keeps the others', () => {
    const content = `apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: good}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: "..", namespace: shop}}\n`;
    const { manifests, errors } = parse(content);
    expect(manifests.map((m) => m.ref.name)).toEqual(['good']);
    expect(errors.map((e) => e.message)).toEqual([
      `n.yaml:5: metadata.name ".." in ConfigMap may not be '..'`,
    ]);
  });
});
