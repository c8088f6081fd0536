import { describe, expect, it } from 'vitest';
import { parseRequestCounts, requestsBetween } from '../../../bench/apiRequests';

// Lines as kube-apiserver's /metrics prints them (labels in its order), with the lines around them.
const metrics = (n: {
  cm: number;
  dry: number;
  pods: number;
}) => `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"} ${n.cm}
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"} 3
apiserver_request_total{code="200",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"} ${n.dry}
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} ${n.pods}
apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="status",verb="PUT",version="v1"} 7
apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/healthz",verb="GET",version=""} 40
apiserver_request_duration_seconds_count{component="apiserver",dry_run="",group="",resource="pods",scope="resource",subresource="",verb="POST",version="v1"} 9
`;

describe("the API server's request counts", () => {
  it('sums every answer code of a verb and resource, keeps subresources and dry runs apart', () => {
    expect(parseRequestCounts(metrics({ cm: 10, dry: 4, pods: 2 }))).toEqual({
      'APPLY configmaps': 13,
      'APPLY configmaps (dry run)': 4,
      'POST pods': 2,
      'PUT deployments/status': 7,
    });
  });

  it('gives what was served between two readings, largest first, leaving out the small ones', () => {
    const before = parseRequestCounts(metrics({ cm: 10, dry: 4, pods: 2 }));
    const after = parseRequestCounts(metrics({ cm: 110, dry: 54, pods: 3 }));
    const between = requestsBetween(before, after, 2);
    expect(between).toEqual({ 'APPLY configmaps': 100, 'APPLY configmaps (dry run)': 50 });
    expect(Object.keys(between)).toEqual(['APPLY configmaps', 'APPLY configmaps (dry run)']);
  });
});
