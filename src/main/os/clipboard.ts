import { spawn } from 'node:child_process';
import { UserError, type Words } from '../errors/user-error';
import { childEnv } from './child-env';

/** The clipboard could not take the text; the message says what to do. */
export class ClipboardError extends UserError {
  constructor(message: string | Words) {
    super(message);
    this.name = 'ClipboardError';
  }
}

interface Tool {
  name: string;
  args: string[];
}

/**
 * The tools to try, best first. On X the clipboard is served by a living process: xclip takes
 * the selection and only then forks into the background (a read right after sees our text);
 * xsel forks first and takes it in the child, so it comes second.
 */
function toolsFor(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Tool[] {
  if (platform === 'darwin') return [{ name: 'pbcopy', args: [] }];
  if (platform === 'win32') return [{ name: 'clip', args: [] }];
  const tools: Tool[] = [];
  if (env.WAYLAND_DISPLAY) tools.push({ name: 'wl-copy', args: [] });
  if (env.DISPLAY) {
    tools.push({ name: 'xclip', args: ['-selection', 'clipboard', '-in'] });
    tools.push({ name: 'xsel', args: ['--clipboard', '--input'] });
  }
  return tools;
}

type Outcome = { ok: true } | { ok: false; missing: true } | { ok: false; message: string };

function run(tool: Tool, text: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    // Its own session (detached), so that the background process serving the selection
    // outlives this command and the terminal it ran in. stdout is not ours to hold: the
    // background process keeps what it inherits.
    const child = spawn(tool.name, tool.args, {
      env: childEnv(env),
      stdio: ['pipe', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {}); // a tool that failed early stops reading
    child.once('error', (err: NodeJS.ErrnoException) => {
      resolve(
        err.code === 'ENOENT' ? { ok: false, missing: true } : { ok: false, message: err.message },
      );
    });
    child.once('exit', (code, signal) => {
      if (code === 0) {
        // The forked server may hold the other end of stderr for as long as it serves.
        child.stderr.destroy();
        resolve({ ok: true });
        return;
      }
      // Failed before forking: nothing else holds stderr, its end comes with the process's.
      child.stderr.once('close', () => {
        const why =
          stderr.trim().split('\n')[0] || (signal ? `killed by ${signal}` : `exit ${code}`);
        resolve({ ok: false, message: why });
      });
    });
    child.stdin.end(text);
  });
}

/**
 * Puts `text` on the system clipboard with the platform's own tool (wl-copy on Wayland, xclip
 * or xsel on X, pbcopy, clip) and says which one did it.
 */
export async function copyText(
  text: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<{ via: string }> {
  const tools = toolsFor(env, platform);
  if (tools.length === 0) {
    throw new ClipboardError({ key: 'cli.clipboard.noDisplay' });
  }
  let failure: { tool: string; message: string } | null = null;
  for (const tool of tools) {
    const outcome = await run(tool, text, env);
    if (outcome.ok) return { via: tool.name };
    // A tool that is there but failed (Wayland gone, X refused us): the next one may work.
    if (!('missing' in outcome)) failure ??= { tool: tool.name, message: outcome.message };
  }
  if (failure) throw new ClipboardError({ key: 'cli.clipboard.failed', params: failure });
  throw new ClipboardError(
    platform === 'darwin' || platform === 'win32'
      ? { key: 'cli.clipboard.noTool', params: { tools: tools.map((t) => t.name).join(', ') } }
      : { key: 'cli.clipboard.install' },
  );
}
