// Reading the files `kg export --format neo4j` writes the way Neo4j's bulk importer documents them
// (the import header format of neo4j-admin database import): a header row of `<name>:<type>`
// fields, "," between fields, `"` around a field that holds a delimiter, a quote or a line break
// (a quote inside doubled), an empty unquoted field for an absent property, ";" between the values
// of an array field and between labels. Written for the tests; nothing here comes from the exporter.

/** A field's type as the header gives it: the importer's special fields, its property types, arrays of them. */
export const HEADER_FIELD =
  /^(?<name>[A-Za-z_][A-Za-z0-9_]*)?(?::(?<type>ID|LABEL|START_ID|END_ID|TYPE|IGNORE|int|long|float|double|boolean|byte|short|char|string)(?<array>\[\])?)?$/;

export interface CsvFile {
  header: string[];
  /** Each row's fields; undefined for an empty unquoted field (an absent property). */
  rows: Array<Array<string | undefined>>;
}

export function parseCsv(text: string): CsvFile {
  const records: Array<Array<string | undefined>> = [];
  let row: Array<string | undefined> = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let value: string | undefined;
    if (text[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += text[i++];
      }
      value = v;
    } else {
      let v = '';
      while (i < n && text[i] !== ',' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        v += text[i++];
      }
      value = v === '' ? undefined : v;
    }
    row.push(value);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === '\n' || i >= n) {
      records.push(row);
      row = [];
      i++;
    } else throw new Error(`unexpected ${JSON.stringify(text[i])} after a field at ${i}`);
  }
  const [header, ...rows] = records;
  return { header: header.map((h) => h ?? ''), rows };
}

/** A parsed row as an object keyed by property name, values typed by the header. */
export function typedRow(header: readonly string[], row: ReadonlyArray<string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  header.forEach((h, k) => {
    const m = HEADER_FIELD.exec(h);
    if (!m?.groups) throw new Error(`not an importer header field: ${h}`);
    const { name, type, array } = m.groups;
    const raw = row[k];
    if (raw === undefined) return;
    const key = name ?? `:${type}`;
    const one = (s: string): unknown => {
      switch (type) {
        case 'int':
        case 'long':
        case 'short':
        case 'byte':
          if (!/^-?[0-9]+$/.test(s)) throw new Error(`${h}: "${s}" is not an integer`);
          return Number(s);
        case 'float':
        case 'double':
          if (Number.isNaN(Number(s))) throw new Error(`${h}: "${s}" is not a number`);
          return Number(s);
        case 'boolean':
          return s === 'true';
        default:
          return s;
      }
    };
    out[key] = array || type === 'LABEL' ? raw.split(';').map(one) : one(raw);
  });
  return out;
}
