// A strict reader of the YAML this repository writes for GitHub (action.yml, docs/examples/*.yml):
// block mappings and sequences indented by spaces, plain and quoted scalars, literal block scalars
// (`|`, `|-`) and comments. Anything else — flow collections, anchors, tags, folded scalars, tabs,
// a plain scalar holding ": ", a key twice — is an error, not a guess: within this subset every
// YAML parser (GitHub's too) reads the same values, so a test over this reading holds for GitHub.

export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
  no: number;
}

class YamlSubsetError extends Error {
  constructor(line: number, why: string) {
    super(`line ${line}: ${why} (outside the YAML subset test/helpers/yaml-subset.ts reads)`);
  }
}

/** `text` without a trailing comment: a `#` after a space, outside a quoted scalar (one that starts with its quote). */
function withoutComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if ((c === "'" || c === '"') && /(?:^|: |^- )$/.test(text.slice(0, i))) quote = c;
    else if (c === '#' && (i === 0 || text[i - 1] === ' ')) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function scalar(raw: string, no: number): Yaml {
  if (raw.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(raw)) throw new YamlSubsetError(no, `unterminated quote: ${raw}`);
    return raw.slice(1, -1).replace(/''/g, "'");
  }
  if (raw.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\["\\n])*"$/.test(raw))
      throw new YamlSubsetError(no, `a double-quoted scalar with escapes beyond \\" \\\\ \\n: ${raw}`);
    return raw.slice(1, -1).replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  if (/^[&*!%@`[\]{}>|]/.test(raw) || raw.startsWith('- ') || raw.includes(': ') || raw.endsWith(':'))
    throw new YamlSubsetError(no, `not a plain scalar: ${raw}`);
  if (raw === '' || raw === '~' || raw === 'null') return null;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?(0|[1-9][0-9]*)$/.test(raw)) return Number(raw);
  return raw;
}

export function parseYamlSubset(source: string): Yaml {
  const rawLines = source.split('\n');
  const lines: Line[] = [];
  /** Literal block scalars, read ahead of the structure: line number → its text. */
  const blocks = new Map<number, string>();
  for (let i = 0; i < rawLines.length; i++) {
    const raw = rawLines[i];
    const no = i + 1;
    if (/^ *\t/.test(raw)) throw new YamlSubsetError(no, 'a tab in the indentation');
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    if (raw.trim() === '---' || raw.trim() === '...') throw new YamlSubsetError(no, 'a document marker');
    const indent = (/^ */.exec(raw) as RegExpExecArray)[0].length;
    const text = withoutComment(raw.slice(indent));
    lines.push({ indent, text, no });
    const block = /(?:^|: |^- )(\|-?)$/.exec(text);
    if (block) {
      const body: string[] = [];
      let j = i + 1;
      for (; j < rawLines.length; j++) {
        const l = rawLines[j];
        if (l.trim() !== '' && (/^ */.exec(l) as RegExpExecArray)[0].length <= indent) break;
        body.push(l);
      }
      while (body.length > 0 && body[body.length - 1].trim() === '') body.pop();
      const first = body.find((l) => l.trim() !== '');
      if (first === undefined) throw new YamlSubsetError(no, 'an empty block scalar');
      const by = (/^ */.exec(first) as RegExpExecArray)[0].length;
      const text = body.map((l) => (l.trim() === '' ? '' : l.slice(by))).join('\n');
      blocks.set(no, block[1] === '|' ? text + '\n' : text);
      i = j - 1;
    }
  }

  let at = 0;
  const valueOf = (rest: string, line: Line, childIndent: number): Yaml => {
    if (rest === '|' || rest === '|-') return blocks.get(line.no) as string;
    if (rest !== '') return scalar(rest, line.no);
    const next = lines[at];
    // A nested node: deeper, or a sequence at the key's own indentation.
    if (next !== undefined && (next.indent > childIndent || (next.indent === childIndent && /^-( |$)/.test(next.text))))
      return node(next.indent);
    return null;
  };
  const node = (indent: number): Yaml => (/^-( |$)/.test(lines[at].text) ? sequence(indent) : mapping(indent));
  const mapping = (indent: number): Yaml => {
    const out: { [key: string]: Yaml } = {};
    while (at < lines.length && lines[at].indent === indent && !/^-( |$)/.test(lines[at].text)) {
      const line = lines[at++];
      const m = /^([A-Za-z0-9_][A-Za-z0-9_.-]*|'[^']*'|"[^"\\]*"):(?: +(.*))?$/.exec(line.text);
      if (!m) throw new YamlSubsetError(line.no, `not "key: value": ${line.text}`);
      const key = /^['"]/.test(m[1]) ? m[1].slice(1, -1) : m[1];
      if (Object.prototype.hasOwnProperty.call(out, key)) throw new YamlSubsetError(line.no, `the key ${key} twice`);
      out[key] = valueOf(m[2] ?? '', line, indent);
    }
    if (at < lines.length && lines[at].indent > indent) throw new YamlSubsetError(lines[at].no, 'unexpected indentation');
    return out;
  };
  const sequence = (indent: number): Yaml => {
    const out: Yaml[] = [];
    while (at < lines.length && lines[at].indent === indent && /^-( |$)/.test(lines[at].text)) {
      const line = lines[at];
      const rest = line.text.slice(1).trimStart();
      if (/^([A-Za-z0-9_][A-Za-z0-9_.-]*|'[^']*'|"[^"\\]*"):( |$)/.test(rest)) {
        // `- key: value` opens a mapping two columns in; its first line is this one.
        lines[at] = { indent: indent + 2, text: rest, no: line.no };
        out.push(mapping(indent + 2));
      } else {
        at++;
        out.push(valueOf(rest, line, indent));
      }
    }
    return out;
  };
  if (lines.length === 0) return null;
  const doc = node(lines[0].indent);
  if (at < lines.length) throw new YamlSubsetError(lines[at].no, 'unexpected indentation');
  return doc;
}
