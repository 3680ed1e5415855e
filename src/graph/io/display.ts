// Text from a graph, a manifest or a config file is untrusted: these helpers are how it is put in a
// message (ADR 96). `previewJson` renders any parsed value in bounded time and stack — JSON.stringify
// recurses, and a value 5,000 arrays deep overflows the stack; `visible` makes control characters
// (an ESC that would drive the terminal, a newline that would forge a line) visible as escapes.

/** Deeper than this, an array or object is shown as `[…]` / `{…}`. */
const PREVIEW_DEPTH = 4;

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators and bidirectional
// controls that can reorder or hide what a terminal shows.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character written as `\uXXXX`. */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// What JSON.stringify leaves raw but a terminal, an editor or a web page acts on: C1 controls, the
// line and paragraph separators, and the bidirectional controls that reorder what is shown (a file
// named `a\u202Egnp.ts` shows as `ast.png`).
const SHOWN_RAW = /[\u0080-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text for output people may read (the CLI's answers, an agent's text): JSON.stringify's, with
 * the characters in SHOWN_RAW written as `\uXXXX` escapes. They can only stand inside strings,
 * where the escape is the same JSON value: a program that parses the text gets every id exactly as
 * graph.json has it, so ids keep round-tripping; only what a screen shows changes (ADR 144).
 */
export function jsonForPeople(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(SHOWN_RAW, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * A one-line rendering of a parsed JSON value, at most `max` characters, that never recurses
 * deeper than a few levels and never walks more than it shows. Strings are JSON-quoted, so their
 * control characters come out escaped.
 */
export function previewJson(value: unknown, max = 80): string {
  let out = '';
  const emit = (s: string): boolean => {
    out += s;
    return out.length <= max;
  };
  const walk = (v: unknown, depth: number): boolean => {
    if (v === undefined) return emit('undefined');
    if (typeof v === 'string') return emit(JSON.stringify(v.length > max ? v.slice(0, max) : v));
    if (typeof v !== 'object' || v === null)
      return emit(typeof v === 'number' || typeof v === 'boolean' || v === null ? String(v) : typeof v);
    const isArray = Array.isArray(v);
    if (depth >= PREVIEW_DEPTH) return emit(isArray ? '[…]' : '{…}');
    if (!emit(isArray ? '[' : '{')) return false;
    const keys = isArray ? undefined : Object.keys(v);
    const n = isArray ? v.length : (keys as string[]).length;
    for (let i = 0; i < n; i++) {
      if (i > 0 && !emit(',')) return false;
      if (isArray) {
        if (!walk((v as unknown[])[i], depth + 1)) return false;
      } else {
        const k = (keys as string[])[i];
        if (!emit(JSON.stringify(k.length > max ? k.slice(0, max) : k) + ':')) return false;
        if (!walk((v as Record<string, unknown>)[k], depth + 1)) return false;
      }
    }
    return emit(isArray ? ']' : '}');
  };
  walk(value, 0);
  return out.length > max ? out.slice(0, max) + '…' : out;
}

// A password in a connection string (issue 55, item 20): the userinfo of a URL
// (`postgresql://u:secret@host`), and the keywords libpq and its URLs' query take
// (`?password=secret`, `password='a b'`). Other parts of the string (user, host, database) stay.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@?#]*):[^\s/?#]*@/gi;
// A value ends at a space, `&`, a quote, or a colon that ends a clause (`…?password=x: refused`).
const KEYWORD_PASSWORD = /\b((?:ssl)?pass(?:word|wd)?|pwd)(\s*=\s*|%3D)('(?:[^'\\]|\\.)*'|(?:[^\s&'":]|:(?![\s]|$))*)/gi;

/** `text` with every password a connection string in it holds replaced by `***`: the one redaction every face uses. */
export function redactCredentials(text: string): string {
  return text.replace(URL_PASSWORD, '$1:***@').replace(KEYWORD_PASSWORD, '$1$2***');
}
