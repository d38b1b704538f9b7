import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PromMetrics } from '../../src/metrics/prom-metrics.js';

const doc = fs.readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8');

/** The rows of the "Every metric" table: name, type and labels as written. */
function documented(): Array<{ name: string; type: string; labels: string[] }> {
  const table = doc.split('## Every metric')[1]!.split('\n## ')[0]!;
  return [...table.matchAll(/^\| `(ctxshed_[a-z_]+)` \| (\w+) \|([^|]*)\|/gm)].map((m) => ({
    name: m[1]!,
    type: m[2]!,
    labels: [...m[3]!.matchAll(/`([a-z_]+)`/g)].map((l) => l[1]!),
  }));
}

describe('docs/metrics.md', () => {
  it('should list every metric the proxy registers, in order, with its type and labels, and no other', () => {
    const registry = new PromMetrics().registry;
    const registered = registry.getMetricsAsArray().map((metric) => {
      const { name, type, labelNames } = metric as unknown as { name: string; type: string; labelNames: string[] };
      return { name, type, labels: [...labelNames] };
    });

    expect(documented()).toEqual(registered);
  });

  it("should end each metric's name in its unit, counters in _total", () => {
    for (const { name, type } of documented()) {
      if (type === 'counter') expect(name).toMatch(/_total$/);
      else expect(name).toMatch(/_(seconds|bytes|blocks)$/);
    }
  });
});
