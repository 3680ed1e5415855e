// The GitHub Action (action.yml, ADR 162), run as GitHub runs a composite action: action.yml is
// read, each `run:` step's `${{ … }}` expressions are filled from the inputs, the github and runner
// contexts and earlier steps' outputs, and the step runs in `bash --noprofile --norc -eo pipefail`
// with its `env`, GITHUB_OUTPUT and GITHUB_ACTION_PATH (this repository). kg is installed by the
// action's own install step from a tarball packed from a clean copy of this repository (ADR 158),
// offline with an empty npm cache; the action then runs `kg diff` on a real git repository whose
// pull requests are merge commits, as GitHub checks them out.
//
// GitHub itself cannot be reached from the machine the tests run on, so its REST API is a real HTTP
// server on 127.0.0.1, started here and stopped at the end, that keeps the issue comments it is
// sent and records every request; the action finds it through GITHUB_API_URL, as on GitHub
// Enterprise (with its /api/v3 prefix). The server answers as GitHub's REST API documents:
// 100 comments a page at most with a Link header to the next page, 201 with the comment on POST,
// 200 on PATCH, 204 on DELETE, 403 on writes to a pull request from a fork.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { git } from '../helpers/diff-repo';
import { npmEnv, packKg } from '../helpers/kg-tarball';
import { parseYamlSubset, type Yaml } from '../helpers/yaml-subset';

const MARKER = '<!-- knowledge-graph:diff -->';
const TOKEN = 'test-token-not-a-secret';
const OWNER_REPO = 'team/app';

// ---- a stand-in for GitHub's REST API ----

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  body?: { body?: string };
}

interface Comment {
  id: number;
  body: string;
}

class FakeGitHub {
  readonly requests: Recorded[] = [];
  readonly comments = new Map<number, Comment[]>();
  /** Pull requests whose token is read-only (from a fork): writes get 403. */
  readonly readOnly = new Set<number>();
  private nextId = 5000;
  private server: http.Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => this.answer(req, data, res));
    });
    await new Promise<void>((resolve) => (this.server as http.Server).listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v3`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  seed(issue: number, bodies: string[]): void {
    const list = this.comments.get(issue) ?? [];
    for (const body of bodies) list.push({ id: this.nextId++, body });
    this.comments.set(issue, list);
  }

  /** The requests since `from`, as "METHOD path". */
  since(from: number): string[] {
    return this.requests.slice(from).map((r) => `${r.method} ${r.path}`);
  }

  ours(issue: number): Comment[] {
    return (this.comments.get(issue) ?? []).filter((c) => c.body.startsWith(MARKER));
  }

  private answer(req: http.IncomingMessage, data: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rec: Recorded = { method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization };
    if (data !== '') rec.body = JSON.parse(data) as { body?: string };
    this.requests.push(rec);
    const json = (status: number, value?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(value === undefined ? undefined : JSON.stringify(value));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { message: 'Bad credentials' });
    const prefix = `/api/v3/repos/${OWNER_REPO}/issues/`;
    if (!url.pathname.startsWith(prefix)) return json(404, { message: 'Not Found' });
    const rest = url.pathname.slice(prefix.length);
    const list = /^(\d+)\/comments$/.exec(rest);
    if (list) {
      const issue = Number(list[1]);
      const comments = this.comments.get(issue) ?? [];
      if (req.method === 'GET') {
        const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
        const page = Number(url.searchParams.get('page') ?? 1);
        const slice = comments.slice((page - 1) * perPage, page * perPage);
        const more = page * perPage < comments.length;
        const next = `${this.url}/repos/${OWNER_REPO}/issues/${issue}/comments?per_page=${perPage}&page=${page + 1}`;
        return json(200, slice, more ? { link: `<${next}>; rel="next"` } : {});
      }
      if (req.method === 'POST') {
        if (this.readOnly.has(issue)) return json(403, { message: 'Resource not accessible by integration' });
        const c = { id: this.nextId++, body: rec.body?.body ?? '' };
        this.comments.set(issue, [...comments, c]);
        return json(201, c);
      }
    }
    const one = /^comments\/(\d+)$/.exec(rest);
    if (one) {
      const id = Number(one[1]);
      for (const [issue, comments] of this.comments) {
        const at = comments.findIndex((c) => c.id === id);
        if (at < 0) continue;
        if (this.readOnly.has(issue)) return json(403, { message: 'Resource not accessible by integration' });
        if (req.method === 'PATCH') {
          comments[at] = { id, body: rec.body?.body ?? '' };
          return json(200, comments[at]);
        }
        if (req.method === 'DELETE') {
          comments.splice(at, 1);
          return json(204);
        }
      }
      return json(404, { message: 'Not Found' });
    }
    json(404, { message: 'Not Found' });
  }
}

// ---- a composite action, run as the runner runs it ----

type Map_ = { [key: string]: Yaml };
const asMap = (v: Yaml | undefined, what: string): Map_ => {
  assert.ok(v !== null && typeof v === 'object' && !Array.isArray(v), `${what} is a mapping`);
  return v as Map_;
};

interface Contexts {
  inputs: Record<string, string>;
  github: Record<string, string>;
  runner: Record<string, string>;
}

/** A `${{ … }}` expression of the kinds action.yml may use; anything else fails the test. */
function expand(text: string, ctx: Contexts, steps: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    const m = /^(inputs|github|runner)\.([\w-]+)$/.exec(expr) ?? /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    assert.ok(m, `an expression the test runner does not know: ${expr}`);
    if (expr.startsWith('steps.')) return steps[m[1]]?.[m[2]] ?? '';
    const value = ctx[m[1] as keyof Contexts][m[2]];
    assert.ok(value !== undefined, `\${{ ${expr} }} is not defined`);
    return value;
  });
}

/** `name=value` lines and `name<<DELIM` blocks of a GITHUB_OUTPUT file. */
function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i].includes('=')) out[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
  }
  return out;
}

interface StepRun {
  id: string;
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, dir: string): Promise<Omit<StepRun, 'id'>> {
  const file = path.join(dir, `step-${Date.now()}-${Math.random().toString(36).slice(2)}.sh`);
  fs.writeFileSync(file, script);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: performance.now() - started }));
  });
}

interface ActionRun {
  code: number;
  steps: StepRun[];
  outputs: Record<string, string>;
  stdout: string;
  summary: string;
}

/**
 * Runs the composite action: inputs (with action.yml's defaults), each step in order until one
 * fails, as the runner would; its outputs from action.yml's `outputs`.
 */
async function runAction(
  action: Map_,
  given: Record<string, string>,
  ctx: Omit<Contexts, 'inputs'>,
  env: NodeJS.ProcessEnv,
): Promise<ActionRun> {
  const declared = asMap(action.inputs, 'inputs');
  for (const k of Object.keys(given)) assert.ok(k in declared, `the action has no input ${k}`);
  const inputs: Record<string, string> = {};
  for (const [k, spec] of Object.entries(declared)) {
    const d = asMap(spec, `input ${k}`).default;
    inputs[k] = given[k] ?? expand(d === null || d === undefined ? '' : String(d), { inputs: {}, ...ctx }, {});
  }
  const contexts: Contexts = { inputs, ...ctx };
  const runs = asMap(action.runs, 'runs');
  const steps: Record<string, Record<string, string>> = {};
  const done: StepRun[] = [];
  const scratch = ctx.runner.temp;
  const summaryFile = path.join(scratch, `summary-${Date.now()}.md`);
  for (const [i, s] of (runs.steps as Yaml[]).entries()) {
    const step = asMap(s, `step ${i}`);
    const id = typeof step.id === 'string' ? step.id : `__${i}`;
    assert.equal(step.shell, 'bash', `step ${id} runs in bash`);
    const outputFile = path.join(scratch, `output-${id}-${Date.now()}`);
    fs.writeFileSync(outputFile, '');
    const stepEnv: NodeJS.ProcessEnv = {
      ...env,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: ctx.github.action_path,
      GITHUB_WORKSPACE: ctx.github.workspace,
      RUNNER_TEMP: ctx.runner.temp,
    };
    for (const [k, v] of Object.entries(asMap(step.env ?? {}, `step ${id} env`))) stepEnv[k] = expand(String(v ?? ''), contexts, steps);
    const cwd = typeof step['working-directory'] === 'string' ? expand(step['working-directory'], contexts, steps) : ctx.github.workspace;
    const r = await bash(expand(String(step.run), contexts, steps), cwd, stepEnv, scratch);
    done.push({ id, ...r });
    steps[id] = readOutputs(outputFile);
    if (r.code !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [k, o] of Object.entries(asMap(action.outputs, 'outputs'))) outputs[k] = expand(String(asMap(o, k).value), contexts, steps);
  const last = done[done.length - 1];
  return {
    code: last.code,
    steps: done,
    outputs,
    stdout: done.map((d) => d.stdout + d.stderr).join(''),
    summary: fs.existsSync(summaryFile) ? fs.readFileSync(summaryFile, 'utf8') : '',
  };
}

// ---- the repository under review ----

const BASE: Record<string, string> = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022" }, "include": ["src"] }\n',
  'src/greet.ts': [
    'export function greet(name: string): string {',
    "  return 'hello ' + name;",
    '}',
    '',
    'export function shout(s: string): string {',
    '  return s.toUpperCase();',
    '}',
    '',
  ].join('\n'),
  'src/app.ts': [
    "import { greet, shout } from './greet';",
    '',
    'export function main(): string {',
    "  return greet('world');",
    '}',
    '',
    'export function loud(): string {',
    "  return shout('hey');",
    '}',
    '',
  ].join('\n'),
};
const GREET_TAKES_TWO = BASE['src/greet.ts'].replace('greet(name: string): string', 'greet(name: string, greeting: string): string');

/** Branches off main, each one pull request's head. */
const HEADS: Record<string, Record<string, string>> = {
  // greet takes a second parameter: main (src/app.ts) is its proven consumer, left calling it with one.
  'greet-takes-two': { 'src/greet.ts': GREET_TAKES_TWO },
  // The next push of that pull request: shout changes too, so loud breaks as well.
  'greet-and-shout': { 'src/greet.ts': GREET_TAKES_TWO.replace('shout(s: string): string', 'shout(s: string, times: number): string') },
  // A comment above the functions: they move down a line, nothing else changes.
  'comment-only': { 'src/greet.ts': '// Greetings, and the loud kind.\n' + BASE['src/greet.ts'] },
};

describe('the GitHub Action: action.yml run as a composite action against a local git repository', () => {
  let action: Map_;
  let workspace: string;
  let mainSha: string;
  /** The merge commit GitHub would check out for a pull request of each head, and the head's own commit. */
  const merges: Record<string, { merge: string; head: string }> = {};
  let tgz: string;
  let env: NodeJS.ProcessEnv;
  const fakeGitHub = new FakeGitHub();
  const timings: string[] = [];

  before(async () => {
    action = asMap(parseYamlSubset(fs.readFileSync(path.join(REPO, 'action.yml'), 'utf8')), 'action.yml');
    const home = tempDir('kg-action-home-');
    env = {
      ...npmEnv(home),
      // The install step's npm: offline, with an empty cache, so it installs the tarball and nothing else.
      npm_config_offline: 'true',
      npm_config_cache: path.join(home, 'empty-cache'),
      XDG_RUNTIME_DIR: tempDir('kg-action-state-'),
      CI: 'true',
    };
    const started = performance.now();
    tgz = packKg(env, path.join(home, 'pack-cache'));
    timings.push(`npm pack ${((performance.now() - started) / 1000).toFixed(1)} s`);

    workspace = tempDir('kg-action-repo-');
    git(workspace, 'init', '--quiet', '--initial-branch=main');
    git(workspace, 'config', 'commit.gpgsign', 'false');
    writeTree(workspace, BASE);
    git(workspace, 'add', '-A');
    git(workspace, 'commit', '--quiet', '-m', 'base');
    mainSha = git(workspace, 'rev-parse', 'HEAD');
    for (const [branch, files] of Object.entries(HEADS)) {
      git(workspace, 'checkout', '--quiet', '-b', branch, 'main');
      writeTree(workspace, files);
      git(workspace, 'commit', '--quiet', '-am', branch);
      const head = git(workspace, 'rev-parse', 'HEAD');
      // refs/pull/N/merge: the head merged into the base branch, with the base as first parent.
      git(workspace, 'checkout', '--quiet', '--detach', 'main');
      git(workspace, 'merge', '--quiet', '--no-ff', '--no-edit', branch);
      merges[branch] = { merge: git(workspace, 'rev-parse', 'HEAD'), head };
    }
    await fakeGitHub.start();
  });

  after(async () => {
    await fakeGitHub.stop();
    console.log(`[action] ${timings.join('; ')}`);
    removeTempDirs();
  });

  /** The action on a pull_request event of pull request `pr` whose head is the branch `branch`. */
  async function onPullRequest(pr: number, branch: string, inputs: Record<string, string> = {}, eventName = 'pull_request') {
    const { merge, head } = merges[branch];
    git(workspace, 'checkout', '--quiet', '--detach', merge); // what actions/checkout leaves
    const temp = tempDir('kg-action-runner-');
    const eventFile = path.join(temp, 'event.json');
    fs.writeFileSync(
      eventFile,
      JSON.stringify({
        action: 'synchronize',
        number: pr,
        pull_request: { number: pr, base: { ref: 'main', sha: mainSha }, head: { ref: branch, sha: head } },
      }),
    );
    const github = {
      token: TOKEN,
      action_path: REPO,
      workspace,
      sha: merge,
      repository: OWNER_REPO,
      event_name: eventName,
    };
    const runEnv: NodeJS.ProcessEnv = {
      ...env,
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_EVENT_NAME: eventName,
      GITHUB_SHA: merge,
      GITHUB_REPOSITORY: OWNER_REPO,
      GITHUB_API_URL: fakeGitHub.url,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_ACTIONS: 'true',
    };
    return runAction(action, { 'kg-package': tgz, ...inputs }, { github, runner: { temp } }, runEnv);
  }

  const diffStep = (r: ActionRun) => r.steps.find((s) => s.id === 'diff') as StepRun;

  it("has the shape GitHub reads: a name, described inputs, a composite's bash steps, outputs from a step's", () => {
    assert.equal(typeof action.name, 'string');
    assert.equal(typeof action.description, 'string');
    const runs = asMap(action.runs, 'runs');
    assert.equal(runs.using, 'composite');
    const steps = (runs.steps as Yaml[]).map((s, i) => asMap(s, `step ${i}`));
    assert.deepEqual(
      steps.map((s) => s.id),
      ['kg', 'diff'],
    );
    const text = fs.readFileSync(path.join(REPO, 'action.yml'), 'utf8');
    const declared = asMap(action.inputs, 'inputs');
    for (const [k, v] of Object.entries(declared)) {
      assert.equal(typeof asMap(v, k).description, 'string', `input ${k} is described`);
      assert.ok(text.includes(`\${{ inputs.${k} }}`), `input ${k} is used`);
    }
    for (const s of steps) {
      assert.equal(s.shell, 'bash', 'a composite run step names its shell');
      assert.doesNotMatch(String(s.run), /\$\{\{/, 'inputs reach the scripts through env, never spliced into their text');
    }
    for (const [k, o] of Object.entries(asMap(action.outputs, 'outputs')))
      assert.match(String(asMap(o, k).value), /^\$\{\{ steps\.diff\.outputs\.[\w-]+ \}\}$/, `output ${k}`);
    assert.ok(fs.existsSync(path.join(REPO, 'scripts', 'pr-diff-comment.mjs')));
  });

  it('a breaking change: one comment with the marker and the broken caller, found past a page of other comments', async () => {
    // 120 comments of people before it: the action's own is on the second page of the listing.
    fakeGitHub.seed(
      7,
      Array.from({ length: 120 }, (_, i) => `looks good ${i}`),
    );
    const from = fakeGitHub.requests.length;
    const r = await onPullRequest(7, 'greet-takes-two');
    timings.push(
      `first run (kg install ${(r.steps[0].ms / 1000).toFixed(1)} s; diff step, both sides built: ${(diffStep(r).ms / 1000).toFixed(1)} s)`,
    );
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(fakeGitHub.since(from), [
      `GET /api/v3/repos/${OWNER_REPO}/issues/7/comments?per_page=100`,
      `GET /api/v3/repos/${OWNER_REPO}/issues/7/comments?per_page=100&page=2`,
      `POST /api/v3/repos/${OWNER_REPO}/issues/7/comments`,
    ]);
    assert.ok(fakeGitHub.requests.slice(from).every((q) => q.authorization === `Bearer ${TOKEN}`));
    const ours = fakeGitHub.ours(7);
    assert.equal(ours.length, 1);
    const body = ours[0].body;
    assert.ok(body.startsWith(MARKER + '\n'));
    assert.match(body, /\*\*1 changed symbol breaks 1 proven consumer\*\*/);
    assert.ok(body.includes('`sym:src/app.ts#main` calls at'), 'the broken caller is named');
    assert.ok(body.includes(`(https://github.example/${OWNER_REPO}/blob/${mainSha}/src/app.ts#L4)`), 'linked to the base, where it calls');
    assert.equal(body, fs.readFileSync(r.outputs.markdown, 'utf8'), 'the comment is the markdown kg diff wrote');
    const report = JSON.parse(fs.readFileSync(r.outputs.report, 'utf8'));
    assert.equal(report.base.commit, mainSha);
    assert.equal(report.head.commit, merges['greet-takes-two'].merge, 'HEAD is the merge commit');
    assert.deepEqual(
      {
        structural: r.outputs.structural,
        breaking: r.outputs.breaking,
        consumers: r.outputs['proven-consumers'],
        comment: r.outputs.comment,
      },
      { structural: 'true', breaking: '1', consumers: '1', comment: 'created' },
    );
    assert.equal(r.outputs['comment-id'], String(ours[0].id));
    assert.ok(r.summary.startsWith(MARKER), 'the report is in the job summary too');
    assert.equal(r.stdout.includes(TOKEN), false, 'the token is never printed');
  });

  it('the next push: the same comment is updated (PATCH), not a second one posted; the same push again writes nothing', async () => {
    const id = fakeGitHub.ours(7)[0].id;
    let from = fakeGitHub.requests.length;
    const r = await onPullRequest(7, 'greet-and-shout');
    timings.push(`second push's diff step ${(diffStep(r).ms / 1000).toFixed(1)} s`);
    assert.equal(r.code, 0, r.stdout);
    assert.deepEqual(fakeGitHub.since(from).slice(2), [`PATCH /api/v3/repos/${OWNER_REPO}/issues/comments/${id}`]);
    assert.equal(fakeGitHub.ours(7).length, 1);
    assert.equal(fakeGitHub.ours(7)[0].id, id);
    assert.match(fakeGitHub.ours(7)[0].body, /\*\*2 changed symbols break 2 proven consumers\*\*/);
    assert.ok(fakeGitHub.ours(7)[0].body.includes('`sym:src/app.ts#loud` calls at'));
    assert.equal(fakeGitHub.comments.get(7)?.length, 121, "people's comments are left alone");
    assert.equal(r.outputs.comment, 'updated');

    from = fakeGitHub.requests.length;
    const again = await onPullRequest(7, 'greet-and-shout');
    timings.push(`a re-run's diff step, both sides cached ${(diffStep(again).ms / 1000).toFixed(1)} s`);
    assert.equal(again.code, 0, again.stdout);
    assert.deepEqual(
      fakeGitHub.since(from).map((q) => q.split(' ')[0]),
      ['GET', 'GET'],
      'the text is the same: nothing is written',
    );
    assert.equal(again.outputs.comment, 'unchanged');
  });

  it('strict: a break fails the job, after the comment is written', async () => {
    const broken = await onPullRequest(7, 'greet-and-shout', { strict: 'true' });
    assert.equal(broken.code, 1, broken.stdout);
    assert.match(broken.stdout, /::error::strict: 2 changed symbols break 2 proven consumers/);
    assert.equal(fakeGitHub.ours(7).length, 1, 'the comment is there to say why');
    assert.equal(broken.outputs.comment, 'unchanged');
  });

  it('nothing structural changed: the stale comment is deleted (strict passes), and none is posted when there is none', async () => {
    const id = fakeGitHub.ours(7)[0].id;
    let from = fakeGitHub.requests.length;
    const quiet = await onPullRequest(7, 'comment-only', { strict: 'true' });
    assert.equal(quiet.code, 0, quiet.stdout);
    assert.deepEqual(fakeGitHub.since(from).slice(2), [`DELETE /api/v3/repos/${OWNER_REPO}/issues/comments/${id}`]);
    assert.equal(fakeGitHub.ours(7).length, 0);
    assert.equal(fakeGitHub.comments.get(7)?.length, 120, "people's comments are left alone");
    assert.deepEqual(
      { structural: quiet.outputs.structural, breaking: quiet.outputs.breaking, comment: quiet.outputs.comment },
      { structural: 'false', breaking: '0', comment: 'deleted' },
    );
    const report = JSON.parse(fs.readFileSync(quiet.outputs.report, 'utf8'));
    assert.ok(report.summary.symbols.moved > 0, 'the functions moved down a line: a position, not a structure');
    assert.match(quiet.summary, /nothing structural changed/);

    from = fakeGitHub.requests.length;
    const fresh = await onPullRequest(9, 'comment-only');
    assert.equal(fresh.code, 0, fresh.stdout);
    assert.deepEqual(fakeGitHub.since(from), [`GET /api/v3/repos/${OWNER_REPO}/issues/9/comments?per_page=100`]);
    assert.equal(fresh.outputs.comment, 'none');
  });

  it("a fork's pull request (a read-only token): a warning, the report in the job summary, the job passes", async () => {
    fakeGitHub.readOnly.add(8);
    const r = await onPullRequest(8, 'greet-takes-two');
    assert.equal(r.code, 0, r.stdout);
    assert.match(
      r.stdout,
      /::warning::the pull request's comment could not be written \(a pull request from a fork gets a read-only token\)/,
    );
    assert.ok(r.summary.startsWith(MARKER));
    assert.equal(r.outputs.comment, 'failed');
    assert.equal(fakeGitHub.ours(8).length, 0);
  });

  it('sides it cannot compare fail the job and leave the comment alone; an event without sides is a usage error', async () => {
    let from = fakeGitHub.requests.length;
    const unknown = await onPullRequest(7, 'greet-takes-two', { base: 'no-such-branch' });
    assert.equal(unknown.code, 2, unknown.stdout);
    assert.match(unknown.stdout, /kg: diff: unknown ref: "no-such-branch"/);
    assert.match(unknown.stdout, /::error::kg diff could not compare no-such-branch with/);
    assert.deepEqual(fakeGitHub.since(from), [], 'no request');

    from = fakeGitHub.requests.length;
    const push = await onPullRequest(7, 'greet-takes-two', {}, 'push');
    assert.equal(push.code, 2, push.stdout);
    assert.match(push.stdout, /name both sides \(inputs base and head\): only a pull_request event gives them \(this is push\)/);
    assert.deepEqual(fakeGitHub.since(from), []);
  });

  it('docs/examples/knowledge-graph-diff.yml is the workflow docs/ci.md shows, and passes only inputs the action declares', () => {
    const file = fs.readFileSync(path.join(REPO, 'docs', 'examples', 'knowledge-graph-diff.yml'), 'utf8');
    assert.ok(fs.readFileSync(path.join(REPO, 'docs', 'ci.md'), 'utf8').includes(file.trimEnd()), 'docs/ci.md shows the file as it is');
    const workflow = asMap(parseYamlSubset(file), 'the workflow');
    assert.ok('pull_request' in asMap(workflow.on, 'on'));
    assert.equal(asMap(workflow.permissions, 'permissions')['pull-requests'], 'write');
    const jobs = Object.values(asMap(workflow.jobs, 'jobs')).map((j) => asMap(j, 'job'));
    const steps = jobs.flatMap((j) => (j.steps as Yaml[]).map((s) => asMap(s, 'step')));
    const checkout = steps.find((s) => String(s.uses).startsWith('actions/checkout@'));
    assert.equal(asMap(checkout?.with, 'checkout with')['fetch-depth'], 0, 'both sides are in the clone');
    const uses = steps.find((s) => /knowledge-graph@/.test(String(s.uses)));
    assert.ok(uses, 'a step uses the action');
    const declared = asMap(action.inputs, 'inputs');
    for (const k of Object.keys(asMap(uses.with ?? {}, 'with'))) assert.ok(k in declared, `the action has an input ${k}`);
  });
});
