import { describe, expect, it } from 'vitest';
import { collapseForbidden, parseForbidden } from '../../../lib/identity/forbiddenFix';

const denied = (verb: string, resource: string, group = '', ns: string | null = 'shop', sa = 'default') =>
  `ConfigMap/shop/x: GET /api/v1/namespaces/shop/${resource}: ${resource} is forbidden: User "system:serviceaccount:shop:${sa}" cannot ${verb} resource "${resource}" in API group "${group}"${ns ? ` in the namespace "${ns}"` : ' at the cluster scope'}`;
const apps = { kind: 'GitTrack' as const, namespace: 'shop', name: 'apps' };

describe('parseForbidden', () => {
  it('reads who may not do what, where, from the authorizer message', () => {
    expect(parseForbidden(denied('list', 'configmaps'))).toEqual({
      user: 'system:serviceaccount:shop:default',
      verb: 'list',
      resource: 'configmaps',
      namespace: 'shop',
    });
    expect(parseForbidden(denied('patch', 'deployments', 'apps', null))).toEqual({
      user: 'system:serviceaccount:shop:default',
      verb: 'patch',
      resource: 'deployments.apps',
    });
    expect(parseForbidden('ConfigMap/shop/x: field is immutable')).toBeUndefined();
  });
});

describe('collapseForbidden', () => {
  it('turns every refusal of the track’s service account into one line naming the fix, where the first was', () => {
    const errors = [
      'a.yaml:1: does not parse',
      denied('list', 'configmaps'),
      denied('list', 'configmaps'),
      denied('create', 'secrets'),
      'b.yaml:1: other',
    ];
    expect(collapseForbidden(errors, apps)).toEqual([
      'a.yaml:1: does not parse',
      'GitTrack shop/apps acts as ServiceAccount shop/default, which may not list configmaps, create secrets in shop: grant it, e.g. kubectl create rolebinding apps-deployer -n shop --clusterrole=edit --serviceaccount=shop:default, or set spec.serviceAccountName',
      'b.yaml:1: other',
    ]);
  });

  it('asks for admin when RBAC objects are refused, and names the cluster scope apart', () => {
    const [line] = collapseForbidden(
      [denied('create', 'rolebindings', 'rbac.authorization.k8s.io'), denied('get', 'namespaces', '', null)],
      apps,
    );
    expect(line).toBe(
      'GitTrack shop/apps acts as ServiceAccount shop/default, which may not create rolebindings.rbac.authorization.k8s.io in shop; get namespaces at the cluster scope: grant it, e.g. kubectl create rolebinding apps-deployer -n shop --clusterrole=admin --serviceaccount=shop:default, or set spec.serviceAccountName',
    );
  });

  it('leaves a ClusterGitTrack’s errors, and refusals of users that are not the track’s, as they are', () => {
    const errors = [denied('list', 'configmaps')];
    expect(collapseForbidden(errors, { kind: 'ClusterGitTrack', name: 'platform' })).toEqual(errors);
    const reconciler = errors[0]?.replace('system:serviceaccount:shop:default', 'lightkeeper') as string;
    expect(collapseForbidden([reconciler], apps)).toEqual([reconciler]);
    expect(collapseForbidden(['nothing forbidden'], apps)).toEqual(['nothing forbidden']);
  });
});
