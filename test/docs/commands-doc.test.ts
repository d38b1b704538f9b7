import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, STATE_EXAMPLE } from '../cli/cli-run.js';

const doc = fs.readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');

/** The ```json examples under the `## \`ctxshed NAME` heading, parsed. */
function examplesOf(name: string): Array<Record<string, unknown>> {
  const section = doc.split(`\n## \`ctxshed ${name}`)[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}

async function jsonOf(args: string[]): Promise<Record<string, unknown>> {
  const result = await runCli([...args, '--state', STATE_EXAMPLE, '--json']);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const keys = (value: unknown): string[] => Object.keys(value as object);
const first = (value: unknown): unknown => (value as unknown[])[0];

describe('docs/commands.md', () => {
  it('should show the --json shape ls prints', async () => {
    const [shown] = examplesOf('ls');
    const actual = await jsonOf(['ls']);

    expect(keys(shown)).toEqual(keys(actual));
    expect(keys(first(shown!['conversations']))).toEqual(keys(first(actual['conversations'])));
  });

  it('should show the --json shape show prints for a shed span', async () => {
    const [, span] = examplesOf('show');
    const actual = await jsonOf(['show', 'a79312205cab']);

    expect(keys(span)).toEqual(keys(actual));
    expect(keys(first(span!['usedBy']))).toEqual(keys(first(actual['usedBy'])));
  });

  it('should show the --json shapes show prints for an elided file and for a conversation', async () => {
    const [elided, , conversation] = examplesOf('show');
    const actualElided = await jsonOf(['show', '8370b47dccff']);
    const actualConversation = await jsonOf(['show', 'cbf84ec36c85']);

    expect(keys(elided)).toEqual(keys(actualElided));
    expect(keys(first(elided!['usedBy']))).toEqual(keys(first(actualElided['usedBy'])));
    expect(keys(conversation)).toEqual(keys(actualConversation));
    const epoch = first(conversation!['epochs']) as Record<string, unknown>;
    const actualEpoch = first(actualConversation['epochs']) as Record<string, unknown>;
    expect(keys(epoch)).toEqual(keys(actualEpoch));
    expect(keys(first(epoch['blocks']))).toEqual(keys(first(actualEpoch['blocks'])));
  });

  it('should show the --json shape status prints', async () => {
    const [shown] = examplesOf('status');
    const actual = await jsonOf(['status']);

    expect(keys(shown)).toEqual(keys(actual));
    expect(keys(first(shown!['conversations']))).toEqual(keys(first(actual['conversations'])));
  });

  it('should show the --json shape stats prints', async () => {
    const [shown] = examplesOf('stats');
    const actual = await jsonOf(['stats']);

    expect(keys(shown)).toEqual(keys(actual));
    expect(keys(shown!['overall'])).toEqual(keys(actual['overall']));
    expect(keys(shown!['wire'])).toEqual(keys(actual['wire']));
    const conversation = first(shown!['conversations']) as Record<string, unknown>;
    const actualConversation = first(actual['conversations']) as Record<string, unknown>;
    expect(keys(conversation)).toEqual(keys(actualConversation));
    expect(keys(first(conversation['epochs']))).toEqual(keys(first(actualConversation['epochs'])));
  });

  it('should show the --json shapes replay --ttl prints', async () => {
    const [shown, resume] = examplesOf('replay');
    const result = await runCli(['replay', '--ttl', 'test/fixtures/transcripts', '--json']);
    const actual = JSON.parse(result.stdout) as Record<string, Record<string, unknown>>;

    expect(keys(shown!['ttl'])).toEqual(keys(actual['ttl']));
    const ttl = shown!['ttl'] as Record<string, Record<string, unknown>>;
    for (const key of ['confusion', 'band', 'resumes', 'skipped']) expect(keys(ttl[key])).toEqual(keys(actual['ttl']![key]));
    expect(keys((ttl['resumes'] as Record<string, unknown>)['cold'])).toEqual(keys((actual['ttl']!['resumes'] as Record<string, unknown>)['cold']));
    expect(keys(first(ttl['disagreements']))).toEqual(keys(first(actual['ttl']!['disagreements'])));
    expect(keys(resume)).toEqual(['session', 'kind', 'sentAt', 'gapMinutes', 'billedWarm', 'inputTokens', 'cacheReadTokens', 'cacheWriteTokens']);
  });
});
