#!/usr/bin/env node
// @ts-check
/* global fetch, AbortSignal -- Node 20 has both */
// The logic of the GitHub Action (action.yml, docs/ci.md, ADR 162): `kg diff` of a pull request's
// base and head, as JSON and as the markdown comment (ADR 105), then the pull request's one comment
// — found by the marker on its first line — created, updated or, when nothing structural changed,
// deleted; in strict mode a failing exit when a change breaks proven consumers.
//
// Plain JavaScript for Node 20 with nothing to install: the action runs it from its own checkout
// with no build step (tsc checks it through `// @ts-check`). It runs nothing from the repository it
// analyses: kg is the installed one (KG_BIN), given the refs as arguments (never through a shell),
// and kg itself only reads the repository's files. The GitHub REST API is reached with Node's
// fetch at GITHUB_API_URL, and only there: a pagination link to another origin is not followed, so
// the token goes nowhere else.
//
// Inputs come from the environment, as action.yml passes them (never spliced into a script):
//   KG_BIN                   the installed kg (its bin entry)
//   INPUT_BASE, INPUT_HEAD   the sides; default on a `pull_request` event: the base branch's commit
//                            (pull_request.base.sha) and the merge commit GitHub checks out (GITHUB_SHA)
//   INPUT_PULL_REQUEST       the pull request's number; default: the event's
//   INPUT_STRICT             "true": exit 1 when a removed, renamed or re-signed symbol has proven consumers
//   INPUT_COMMENT            "false": no comment is read or written (the report is still in the job summary)
//   INPUT_WORKING_DIRECTORY  the repository's folder, relative to GITHUB_WORKSPACE
//   GITHUB_TOKEN             for the comment; never handed to kg
// and GitHub's own variables: GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, GITHUB_SHA, GITHUB_REPOSITORY,
// GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY.
//
// Exit codes: 0 done (comment failures are warnings: a fork's pull request gets a read-only token);
// 1 strict and something breaks; 2 usage (an input or the event does not say what to compare);
// kg's own 2 or 3 when it cannot compare the sides (the comment is left as it was).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The first line of every comment `kg diff --format markdown` writes (src/graph/diff/pr-comment.ts). */
export const MARKER = '<!-- knowledge-graph:diff -->';
const PER_PAGE = 100;
const API_TIMEOUT_MS = 30_000;
const LOG = 'knowledge-graph-action:';

class UsageError extends Error {}

/**
 * Whether a `kg diff` report shows a structural change: any count in its summary except symbols
 * that only moved within their file (a position, not a structure) and the breaking counts (which
 * follow from removed, renamed and re-signed symbols), or a record that came or went. A count
 * added to the summary later counts as structural until this says otherwise.
 * @param {{ summary: object, records?: { added: unknown[], removed: unknown[] } }} report
 * @returns {boolean}
 */
export function isStructural(report) {
  for (const [group, value] of Object.entries(report.summary)) {
    if (group === 'breaking') continue;
    const counts = typeof value === 'number' ? [['', value]] : Object.entries(/** @type {Record<string, number>} */ (value));
    for (const [key, n] of counts) if (!(group === 'symbols' && key === 'moved') && n !== 0) return true;
  }
  return (report.records?.added.length ?? 0) + (report.records?.removed.length ?? 0) > 0;
}

/**
 * The sides and the pull request, from the inputs or a `pull_request` event's payload.
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ base: string, head: string, pullRequest: number | undefined }}
 */
export function sides(env) {
  /** @type {{ pull_request?: { number?: number, base?: { sha?: string } } }} */
  let event = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      event = JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
    } catch (e) {
      throw new UsageError(`cannot read the event payload ${env.GITHUB_EVENT_PATH}: ${e instanceof Error ? e.message : e}`);
    }
  }
  const onPullRequest = env.GITHUB_EVENT_NAME === 'pull_request';
  const base = env.INPUT_BASE || (onPullRequest ? event.pull_request?.base?.sha : undefined);
  // The merge commit of refs/pull/N/merge: what merging would change, with base's own new commits as the base.
  const head = env.INPUT_HEAD || (onPullRequest ? env.GITHUB_SHA : undefined);
  if (!base || !head)
    throw new UsageError(
      `name both sides (inputs base and head): only a pull_request event gives them (this is ${env.GITHUB_EVENT_NAME || 'no event'})`,
    );
  const given = env.INPUT_PULL_REQUEST || '';
  if (given !== '' && !/^[1-9][0-9]*$/.test(given)) throw new UsageError(`pull-request must be a number, not "${given}"`);
  const pullRequest = given !== '' ? Number(given) : event.pull_request?.number;
  return { base, head, pullRequest };
}

/**
 * @param {string | undefined} value
 * @param {string} name
 * @param {boolean} fallback
 */
function flag(value, name, fallback) {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`${name} must be "true" or "false", not "${value}"`);
}

/**
 * Runs the installed kg (no shell; without the token or the action's inputs in its environment).
 * @param {string} kg
 * @param {string[]} args
 * @param {string} cwd
 * @param {NodeJS.ProcessEnv} env
 */
function runKg(kg, args, cwd, env) {
  /** @type {NodeJS.ProcessEnv} */
  const kgEnv = {};
  for (const [k, v] of Object.entries(env)) if (k !== 'GITHUB_TOKEN' && !k.startsWith('INPUT_')) kgEnv[k] = v;
  // As in CI wherever it runs: no build server is started, so nothing outlives the job.
  Object.assign(kgEnv, { CI: 'true', KG_SERVER: 'off' });
  const r = spawnSync(process.execPath, [kg, ...args], { cwd, env: kgEnv, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  process.stderr.write(r.stderr);
  return { code: r.status ?? 1, stdout: r.stdout };
}

/**
 * The GitHub REST API at one origin, with the token.
 * @param {string} apiUrl
 * @param {string} token
 */
function github(apiUrl, token) {
  const root = new URL(apiUrl.endsWith('/') ? apiUrl : apiUrl + '/');
  /**
   * @param {string} method
   * @param {string | URL} where a path under the API root, or a URL at its origin
   * @param {unknown} [body]
   */
  const call = async (method, where, body) => {
    const url = typeof where === 'string' ? new URL(where.replace(/^\//, ''), root) : where;
    if (url.origin !== root.origin) throw new Error(`refusing to send the token to ${url.origin} (the API is ${root.origin})`);
    const res = await fetch(url, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'knowledge-graph-action',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      const err = new Error(`${method} ${url.pathname}: HTTP ${res.status} ${text.slice(0, 300)}`);
      Object.assign(err, { status: res.status });
      throw err;
    }
    return res;
  };
  return {
    /**
     * Every comment of an issue or pull request, page after page (the Link header's "next").
     * @param {string} repo
     * @param {number} issue
     * @returns {Promise<Array<{ id: number, body?: string }>>}
     */
    async comments(repo, issue) {
      /** @type {Array<{ id: number, body?: string }>} */
      const all = [];
      /** @type {string | URL | undefined} */
      let next = `repos/${repo}/issues/${issue}/comments?per_page=${PER_PAGE}`;
      while (next !== undefined) {
        const res = await call('GET', next);
        const page = /** @type {Array<{ id: number, body?: string }>} */ (await res.json());
        all.push(...page);
        const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '');
        next = link ? new URL(link[1]) : undefined;
      }
      return all;
    },
    /** @param {string} repo @param {number} issue @param {string} body @returns {Promise<number>} */
    async create(repo, issue, body) {
      const res = await call('POST', `repos/${repo}/issues/${issue}/comments`, { body });
      return /** @type {{ id: number }} */ (await res.json()).id;
    },
    /** @param {string} repo @param {number} id @param {string} body */
    async update(repo, id, body) {
      await call('PATCH', `repos/${repo}/issues/comments/${id}`, { body });
    },
    /** @param {string} repo @param {number} id */
    async remove(repo, id) {
      await call('DELETE', `repos/${repo}/issues/comments/${id}`);
    },
  };
}

/**
 * The pull request's one comment made to say `markdown` (or gone, when `markdown` is undefined):
 * the first comment whose body starts with the marker is updated (only if its text differs), any
 * other such comment is deleted, and one is created when there is none.
 * @param {ReturnType<typeof github>} api
 * @param {string} repo
 * @param {number} issue
 * @param {string | undefined} markdown
 * @returns {Promise<{ action: 'created' | 'updated' | 'unchanged' | 'deleted' | 'none', id?: number }>}
 */
async function syncComment(api, repo, issue, markdown) {
  const ours = (await api.comments(repo, issue)).filter((c) => typeof c.body === 'string' && c.body.startsWith(MARKER));
  const [first, ...extra] = ours;
  for (const c of markdown === undefined ? ours : extra) await api.remove(repo, c.id);
  if (markdown === undefined) return { action: ours.length > 0 ? 'deleted' : 'none' };
  if (first === undefined) return { action: 'created', id: await api.create(repo, issue, markdown) };
  // Compared as GitHub may store it: with CRLF line ends.
  if (first.body?.replace(/\r\n/g, '\n') === markdown) return { action: 'unchanged', id: first.id };
  await api.update(repo, first.id, markdown);
  return { action: 'updated', id: first.id };
}

/**
 * Appends `name=value` lines to a GitHub file command (GITHUB_OUTPUT), when there is one.
 * @param {string | undefined} file
 * @param {Record<string, string | number | boolean>} values
 */
function setOutputs(file, values) {
  if (!file) return;
  fs.appendFileSync(
    file,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
}

/** @param {string} s a workflow command's text: one line, `%` escaped as GitHub reads it */
const command = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>} the exit code
 */
async function main(env) {
  const kg = env.KG_BIN;
  if (!kg) throw new UsageError('KG_BIN is not set: the action installs kg before this step');
  const { base, head, pullRequest } = sides(env);
  const strict = flag(env.INPUT_STRICT, 'strict', false);
  const comment = flag(env.INPUT_COMMENT, 'comment', true);
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const root = path.resolve(workspace, env.INPUT_WORKING_DIRECTORY || '.');
  const out = path.join(env.RUNNER_TEMP || root, 'knowledge-graph-diff');
  fs.mkdirSync(out, { recursive: true });

  console.log(`${LOG} kg diff ${base} ${head}${pullRequest !== undefined ? ` (pull request #${pullRequest})` : ''}`);
  const json = runKg(kg, ['diff', base, head, '--root', root, '--no-server'], root, env);
  if (json.code !== 0) {
    console.log(`::error::${command(`kg diff could not compare ${base} with ${head} (exit ${json.code}); the comment is left as it was`)}`);
    return json.code;
  }
  const links = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/blob/{commit}/` : '';
  const md = runKg(
    kg,
    [
      'diff',
      base,
      head,
      '--root',
      root,
      '--no-server',
      '--format',
      'markdown',
      ...(links ? ['--link-base', links, '--link-head', links] : []),
    ],
    root,
    env,
  );
  if (md.code !== 0) return md.code;
  const reportFile = path.join(out, 'report.json');
  const markdownFile = path.join(out, 'comment.md');
  fs.writeFileSync(reportFile, json.stdout);
  fs.writeFileSync(markdownFile, md.stdout);

  const report = JSON.parse(json.stdout);
  const structural = isStructural(report);
  const breaking = report.summary.breaking;
  console.log(
    `${LOG} ${structural ? 'structural changes' : 'nothing structural changed'}; ` +
      `${breaking.symbols} changed symbols break ${breaking.provenConsumers} proven consumers (${breaking.guessedConsumers} guessed)`,
  );
  if (env.GITHUB_STEP_SUMMARY)
    fs.appendFileSync(
      env.GITHUB_STEP_SUMMARY,
      structural ? md.stdout : `Knowledge Graph: nothing structural changed between \`${base}\` and \`${head}\`.\n`,
    );

  /** @type {{ action: string, id?: number }} */
  let result = { action: 'skipped' };
  if (!comment) console.log(`${LOG} comment: off`);
  else if (pullRequest === undefined) console.log(`${LOG} no pull request: no comment`);
  else if (!env.GITHUB_TOKEN || !env.GITHUB_REPOSITORY)
    console.log(
      `::warning::${command('no GITHUB_TOKEN or GITHUB_REPOSITORY: the pull request gets no comment; the report is in the job summary')}`,
    );
  else {
    const api = github(env.GITHUB_API_URL || 'https://api.github.com', env.GITHUB_TOKEN);
    try {
      result = await syncComment(api, env.GITHUB_REPOSITORY, pullRequest, structural ? md.stdout : undefined);
      console.log(`${LOG} comment on #${pullRequest}: ${result.action}${result.id !== undefined ? ` (${result.id})` : ''}`);
    } catch (e) {
      const status = /** @type {{ status?: number }} */ (e).status;
      const why = status === 403 || status === 404 ? ' (a pull request from a fork gets a read-only token)' : '';
      console.log(
        `::warning::${command(`the pull request's comment could not be written${why}: ${e instanceof Error ? e.message : e}; the report is in the job summary`)}`,
      );
      result = { action: 'failed' };
    }
  }
  setOutputs(env.GITHUB_OUTPUT, {
    structural,
    breaking: breaking.symbols,
    'proven-consumers': breaking.provenConsumers,
    comment: result.action,
    'comment-id': result.id ?? '',
    report: reportFile,
    markdown: markdownFile,
  });
  if (strict && breaking.symbols > 0) {
    console.log(
      `::error::${command(`strict: ${breaking.symbols} changed symbols break ${breaking.provenConsumers} proven consumers (docs/ci.md, "When a break is intended")`)}`,
    );
    return 1;
  }
  return 0;
}

/** Whether this file is the program node runs (not a module a test imports). */
function isMain() {
  if (process.argv[1] === undefined) return false;
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  main(process.env).then(
    (code) => process.exit(code),
    (e) => {
      console.log(
        `::error::${command(`${e instanceof UsageError ? '' : 'knowledge-graph-action failed: '}${e instanceof Error ? e.message : e}`)}`,
      );
      process.exit(e instanceof UsageError ? 2 : 1);
    },
  );
}
