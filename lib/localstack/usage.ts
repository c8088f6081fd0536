import { startRunLabel } from '../manifests/metadataKeys';
import type { LocalStack } from './startLocalStack';

const cli = 'npx lightkeeper';
const functions = ['webhook', 'reconcile', 'sweep'] as const;
const quote = (s: string) => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

/** What `lightkeeper start` prints once it is up: where everything is and how to use it. */
export function usage(stack: LocalStack): string {
  const { offline, repo } = stack;
  const reconcile = offline.functionName('reconcile');
  const push = [
    `${cli} push ${quote(repo.dir)}`,
    `--repo-url ${repo.url}`,
    `--webhook ${offline.webhookUrl}`,
    `--secret ${stack.webhookSecret}`,
  ].join(' \\\n      ');
  return `
  webhook          POST ${offline.webhookUrl}
  webhook secret   ${stack.webhookSecret}
  webhook identity ${stack.webhookIdentity.user}  (reads tracks only; kubeconfig ${stack.webhookIdentity.kubeconfig})
  Lambda endpoint  ${offline.lambdaEndpoint}  (functions ${functions.map(offline.functionName).join(', ')})
  drift sweep      ${stack.sweepScheduled ? 'every 5 minutes; new or changed tracks every minute' : "off (not this machine's cluster)"}
  git repository   ${repo.url}  (working tree ${repo.dir})
  kubeconfig       ${stack.kubeconfig}
  kubectl          ${stack.kubectl}

Everything this run created carries the label ${startRunLabel}=${stack.names.runId}; Ctrl-C removes exactly that.

Look around:
  KUBECONFIG=${quote(stack.kubeconfig)} ${quote(stack.kubectl)} get lightkeeper -A

Push a change: edit, commit, then deliver the signed push GitHub would send (from ${quote(process.cwd())}):
  $EDITOR ${quote(`${repo.dir}/${stack.names.demoNamespace}/configmap.yaml`)}
  git -C ${quote(repo.dir)} commit -am 'my change'
  ${push}

While this run is up, \`${cli} push\` and \`${cli} replay TRACK\` find it without the flags above.

Replay an older commit through the reconcile function (Lambda Invoke); it pins the track there
(sweeps and pushes keep it) until you unpin it, or add --once to apply it until the next sweep or push:
  KUBECONFIG=${quote(stack.kubeconfig)} ${cli} replay cgt/${stack.names.demoTrack.name} --commit ${stack.firstCommit} --function ${reconcile} --endpoint ${offline.lambdaEndpoint}
  KUBECONFIG=${quote(stack.kubeconfig)} ${cli} unpin cgt/${stack.names.demoTrack.name}
`;
}
