import type { TrackTree, TreeNode } from './buildTrackTree';

const short = (commit: string | undefined) => (commit ? commit.slice(0, 12) : 'never applied');

function nodeLines(n: TreeNode, last: boolean): string[] {
  const branch = last ? '└── ' : '├── ';
  const under = last ? '    ' : '│   ';
  const sync = n.inSync
    ? `${n.inSync.status === 'True' ? 'InSync' : 'NotInSync'} (${n.inSync.reason ?? '-'})`
    : 'InSync unknown';
  const health = n.healthy ? `  ${healthWord(n.healthy)}` : '';
  const marks = [
    n.protected ? 'protected: survives the deletion of its track' : undefined,
    n.conflict ? 'CONFLICT' : undefined,
  ].filter(Boolean);
  const child = `${n.child.kind}/${n.child.namespace ? `${n.child.namespace}/` : ''}${n.child.name}`;
  const lines = [
    `${branch}${n.tracker.kind}/${n.tracker.namespace ? `${n.tracker.namespace}/` : ''}${n.tracker.name}  ${sync}${health}  ${short(n.lastAppliedCommit)}`,
    `${under}└── ${child}  ${n.child.state}${marks.length ? `  ${marks.join(', ')}` : ''}`,
  ];
  if (n.child.detail) lines.push(`${under}      ${n.child.detail}`);
  if (n.inSync?.status === 'False' && n.inSync.message)
    lines.push(`${under}      ${n.inSync.message.split('\n')[0]}`);
  if (n.healthy && n.healthy.status !== 'True' && n.healthy.message)
    lines.push(`${under}      ${n.healthy.message.split('\n')[0]}`);
  return lines;
}

/** `flux tree`-style text: the track, then each tracking object with its child beneath. */
export function formatTrackTree(tree: TrackTree): string {
  const t = tree.track;
  const healthy = tree.healthy
    ? `  Healthy=${tree.healthy.status} (${tree.healthy.message?.split('\n')[0] ?? tree.healthy.reason ?? '-'})`
    : '';
  const head = [
    `${t.kind}/${t.namespace ? `${t.namespace}/` : ''}${t.name}  ${tree.ready ? `Ready=${tree.ready.status} (${tree.ready.reason ?? '-'})` : 'not reconciled'}${healthy}  ${short(tree.lastAppliedCommit)}  deletionPolicy=${tree.deletionPolicy}`,
  ];
  if (tree.objectsConflicting) head.push(`  ${tree.objectsConflicting} object(s) in conflict`);
  return [...head, ...tree.nodes.flatMap((n, i) => nodeLines(n, i === tree.nodes.length - 1))].join('\n');
}

/** A child's health in one word: Healthy, Progressing, or Unhealthy with the reason. */
function healthWord(h: NonNullable<TreeNode['healthy']>): string {
  if (h.status === 'True') return 'Healthy';
  if (h.status === 'Unknown') return 'Progressing';
  return `Unhealthy (${h.reason ?? '-'})`;
}
