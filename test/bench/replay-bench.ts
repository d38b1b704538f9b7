/**
 * `replay`'s speed (issue 42, item 3): seconds per MB of transcript, against the time to read and
 * parse the same files alone (readSessions: the lines parsed, the conversations rebuilt, the
 * history stitched), measured in the same run, interleaved. "replay" is what the command runs
 * after it read them: every session up to its first compaction and whole, on a pool of this
 * thread and one worker thread per further core (src/replay/replay-pool.ts), opened inside the
 * timing, so its workers' start is counted. "cli" is the whole command from a new process (Node's
 * start, the modules, the arguments, the report printed). CPU is per thread where /proc shows it:
 * the busiest thread's CPU time is what the wall time would be on a quiet machine with a core
 * for each thread.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayRuns } from '../../src/cli/replay-runs.js';
import { readSessions, type SessionInput } from '../../src/replay/read-sessions.js';
import { ReplayPool } from '../../src/replay/replay-pool.js';
import { formatTable, quantile } from './measure.js';

/** The shared sessions, from the repository (the bench runs from dist/test/bench). */
const SESSIONS_DIR = fileURLToPath(new URL('../../../test/fixtures/sessions/', import.meta.url));
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const OPTIONS = { settings: { threshold: 0.7, keepRecent: 6, minBytes: 1024 } };
const ROUNDS = 3;

/** What one timing took: wall seconds, process CPU seconds, and the busiest thread's CPU seconds (NaN where unknown). */
interface Timing {
  readonly wall: number;
  readonly cpu: number;
  readonly busiest: number;
}

/** One row's medians. */
export interface ReplayBenchRow {
  readonly name: string;
  readonly mb: number;
  readonly parse: Timing;
  readonly replay: Timing;
  readonly cli: number;
}

/** Runs the replay benchmark and prints its table; returns the figures. */
export async function runReplayBench(log: (line: string) => void = (line) => console.log(line)): Promise<ReplayBenchRow[]> {
  const files = fs
    .readdirSync(SESSIONS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => path.join(SESSIONS_DIR, f));
  log('## replay: seconds per MB of transcript, against reading and parsing the files alone');
  log(
    `(${ROUNDS} rounds, interleaved; medians; ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start)\n`,
  );
  const sets = [...files.map((f) => [f]), files];
  const rows: ReplayBenchRow[] = [];
  const samples = sets.map(() => ({ parse: [] as Timing[], replay: [] as Timing[], cli: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < sets.length; k++) {
      const i = (k + round) % sets.length;
      const set = sets[i]!;
      samples[i]!.parse.push(await timed(() => readSessions(set)));
      const sessions = await readSessions(set);
      samples[i]!.replay.push(await timed(() => replaySessions(sessions)));
      samples[i]!.cli.push(cliSeconds(set));
    }
  }
  for (const [i, set] of sets.entries()) {
    const s = samples[i]!;
    const mb = set.reduce((n, f) => n + sessionBytes(f), 0) / 1e6;
    rows.push({
      name: set.length === 1 ? path.basename(set[0]!).slice(0, 8) : `all ${set.length}`,
      mb,
      parse: median(s.parse),
      replay: median(s.replay),
      cli: med(s.cli),
    });
  }
  log(
    formatTable(
      ['sessions', 'MB', 'read+parse s', 'replay s', 'replay s/MB', 'replay / parse', 'replay CPU s', 'busiest thread s', 'cli s'],
      rows.map((r) => [
        r.name,
        r.mb.toFixed(2),
        r.parse.wall.toFixed(2),
        r.replay.wall.toFixed(2),
        (r.replay.wall / r.mb).toFixed(2),
        (r.replay.wall / r.parse.wall).toFixed(1),
        r.replay.cpu.toFixed(2),
        Number.isNaN(r.replay.busiest) ? '-' : r.replay.busiest.toFixed(2),
        r.cli.toFixed(2),
      ]),
    ),
  );
  log('\nMB: the session files with their subagent files. "replay s" does not include reading the files: "read+parse s" is that.');
  log('"busiest thread s": CPU time of the thread that worked longest (this one or a worker): the wall time on a quiet machine with a core each.');
  log('"cli s": `ctxshed replay FILES --json` from a new process, start to exit.');
  return rows;
}

/** Replays the sessions as the command does, on a pool opened here. */
async function replaySessions(sessions: SessionInput[]): Promise<unknown> {
  const started = threadCpu();
  const pool = ReplayPool.open(availableParallelism() - 1);
  try {
    const reports = await replayRuns(sessions, [OPTIONS], pool);
    lastThreadCpu = diffThreads(started, threadCpu());
    return reports;
  } finally {
    await pool.close();
  }
}

let lastThreadCpu = Number.NaN;

/** Times one call: wall, process CPU, and (for the replay) the busiest thread's CPU. */
async function timed(run: () => Promise<unknown>): Promise<Timing> {
  lastThreadCpu = Number.NaN;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1e6, busiest: lastThreadCpu };
}

/** `ctxshed replay FILES --json` in a new process: its wall seconds. */
function cliSeconds(files: readonly string[]): number {
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [CLI, 'replay', ...files, '--json'], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`ctxshed replay exited ${String(result.status)}: ${String(result.stderr)}`);
  return (performance.now() - t0) / 1000;
}

/** Each thread's CPU seconds so far (Linux /proc; empty elsewhere). */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
      out.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
    }
  } catch {
    // No /proc: the busiest thread is unknown.
  }
  return out;
}

/** The largest CPU time a thread spent between two readings (a thread born between them from 0). */
function diffThreads(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number {
  if (after.size === 0) return Number.NaN;
  let busiest = 0;
  for (const [tid, cpu] of after) busiest = Math.max(busiest, cpu - (before.get(tid) ?? 0));
  return busiest;
}

/** A session file's bytes with its subagent files'. */
function sessionBytes(file: string): number {
  const sub = path.join(path.dirname(file), path.basename(file, '.jsonl'), 'subagents');
  const subs = fs.existsSync(sub) ? fs.readdirSync(sub).filter((f) => f.endsWith('.jsonl')) : [];
  return fs.statSync(file).size + subs.reduce((n, f) => n + fs.statSync(path.join(sub, f)).size, 0);
}

function median(timings: readonly Timing[]): Timing {
  return { wall: med(timings.map((t) => t.wall)), cpu: med(timings.map((t) => t.cpu)), busiest: med(timings.map((t) => t.busiest)) };
}

function med(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}
