import type { AuditReport } from './auditCluster';
import type { Finding } from './classifyOwnerReferences';

const objectLabel = (o: { apiVersion: string; kind: string; namespace?: string | undefined; name: string }) =>
  `${o.kind}.${o.apiVersion} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

function formatFinding(f: Finding): string {
  const owner = `${f.owner.kind}.${f.owner.apiVersion} ${f.owner.name} (uid ${f.owner.uid}${f.owner.foundIn ? `, in namespace ${f.owner.foundIn}` : ''})`;
  return [
    `${f.finding}: ${objectLabel(f.dependent)} → ${f.consequence}`,
    `  owner: ${owner}`,
    `  why:   ${f.why}`,
    `  fix:   ${f.fix}`,
  ].join('\n');
}

/** The report for a terminal: one block per finding, then one line of totals. */
export function formatAudit(report: AuditReport): string {
  const lines = report.findings.map(formatFinding);
  if (report.skipped.length > 0)
    lines.push(`not scanned (owners of these types were not seen): ${report.skipped.join(', ')}`);
  const { types, objects } = report.scanned;
  lines.push(
    report.findings.length === 0
      ? `no owner reference the garbage collector would act on (${objects} objects of ${types} types)`
      : `${report.findings.length} owner reference(s) the garbage collector will act on (${objects} objects of ${types} types)`,
  );
  return lines.join(report.findings.length > 0 ? '\n\n' : '\n');
}
