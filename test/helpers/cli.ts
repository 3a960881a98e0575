import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleDir } from './bundle.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The CLI from the run's bundle (a run starts in ~0.2 s of CPU instead of ~1 s through tsx), else its sources. */
const cli = (): string[] => {
  const dir = bundleDir();
  return dir === undefined ? ['--import', 'tsx', 'client/src/cli/main.ts'] : [join(dir, 'seq.js')];
};
/** A CLI run that outlives this is killed: no test should wait on a hung child. */
const RUN_TIMEOUT_MS = 20_000;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** the service, instead of the runner's */
  baseUrl?: string;
  /** sends Ctrl-C once stdout matches (a live command) */
  untilStdout?: (stdout: string) => boolean;
  /** more environment (a venue secret for `credentials set`) */
  env?: Record<string, string>;
  /** written to the child's stdin, then closed; stdin is ignored without it */
  stdin?: string;
}

export interface CliRunner {
  run(args: readonly string[], options?: CliOptions): Promise<CliRun>;
  /** everything every run printed, stdout and stderr, to check no secret was */
  printed: string[];
}

/**
 * The CLI (`client/src/cli/main.ts`) as a child process, with `SEQ_API_KEY` and `SEQ_BASE_URL`
 * from `target` (read at each run: the service starts in a `before`).
 */
export function cliRunner(target: () => { apiKey: string; baseUrl: string }): CliRunner {
  const printed: string[] = [];
  const run = (args: readonly string[], options: CliOptions = {}): Promise<CliRun> =>
    new Promise((resolve, reject) => {
      const { apiKey, baseUrl } = target();
      const env: NodeJS.ProcessEnv = { ...process.env, SEQ_API_KEY: apiKey, SEQ_BASE_URL: options.baseUrl ?? baseUrl, ...options.env };
      const child = spawn(process.execPath, [...cli(), ...args], { cwd: ROOT, env, stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
      if (options.stdin !== undefined) child.stdin!.end(options.stdin);
      let stdout = '';
      let stderr = '';
      let interrupted = false;
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (!interrupted && options.untilStdout?.(stdout) === true) {
          interrupted = true;
          child.kill('SIGINT');
        }
      });
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        printed.push(stdout, stderr);
        resolve({ code, stdout, stderr });
      });
    });
  return { run, printed };
}
