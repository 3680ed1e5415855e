// What every kg command shares: its options' help lines, how it parses its arguments, and the
// one way a usage error is reported (`kg <command>: <what>`, the usage line, where the help is).

import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
import { DEFAULT_GRAPH_PATH, GRAPH_DIR } from '../graph';

/** A mistake in the command line: exit 2 with the command's usage (run.ts reports it). */
export class UsageError extends Error {}

/**
 * parseArgs, strict, with every complaint turned into a UsageError. `-h`/`--help` never reach a
 * command: run.ts answers them from the command table (docs/cli.md).
 */
export function parseCommandArgs<const O extends Options, const P extends boolean = false>(
  args: string[],
  options: O,
  allowPositionals?: P,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: P; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: (allowPositionals ?? false) as P, strict: true }) as ReturnType<
      typeof parseArgs<{ args: string[]; options: O; allowPositionals: P; strict: true }>
    >;
  } catch (e) {
    if (typeof (e as { code?: unknown }).code === 'string' && (e as { code: string }).code.startsWith('ERR_PARSE_ARGS_'))
      throw new UsageError((e as Error).message);
    throw e;
  }
}

/** Whether the arguments ask for a command's help (`-h`/`--help` before any `--`). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '-h' || a === '--help');
}

/** Options as a help page lists them, the descriptions aligned in one column. */
export function optionLines(
  rows: Array<[flag: string, description: string]>,
  width = Math.max(...rows.map(([flag]) => flag.length)) + 2,
): string {
  return rows
    .map(([flag, description]) => {
      const [first, ...rest] = description.split('\n');
      return [`  ${flag.padEnd(width)}${first}`, ...rest.map((l) => `  ${' '.repeat(width)}${l}`)].join('\n');
    })
    .join('\n');
}

/** The options several commands share, worded once. */
export const COMMON_OPTIONS = {
  graph: [
    '--graph FILE',
    `The graph (default: <root>/${DEFAULT_GRAPH_PATH}). A graph inside a\n${GRAPH_DIR} folder describes that folder's parent unless --root says otherwise.`,
  ],
  root: [
    '--root DIR',
    `Repository root (default: the nearest folder at or above the current one\nholding ${GRAPH_DIR} or .git, else the outermost holding a tsconfig.json,\nelse the current directory).`,
  ],
  out: ['--out FILE', `Where the graph lives (default: <root>/${DEFAULT_GRAPH_PATH}); the\nmanifest is written beside it.`],
  help: ['-h, --help', 'Show this help.'],
} satisfies Record<string, [string, string]>;

/** The usage lines of a help text: everything before its first blank line. */
function usageLines(help: string): string {
  const end = help.indexOf('\n\n');
  return (end < 0 ? help : help.slice(0, end)) + '\n';
}

/** How every command reports a usage error. */
export function usageErrorText(command: string, message: string, help: string): string {
  return `kg ${command}: ${message}\n${usageLines(help)}Run "kg ${command} --help" for details.\n`;
}

/** `text` broken into lines of at most `width` characters, at spaces. */
export function wrap(text: string, width = 96): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
