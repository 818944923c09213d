// Values between JSON and Postgres' text, both ways, as Neon's proxy turns them.

// Parameters: Neon accepts any JSON value and turns it into Postgres text (json_to_pg_text).

/** null → NULL; strings as is; booleans, numbers and objects as JSON; arrays as array literals. */
export function toPgText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return toPgArrayItem(value);
  return JSON.stringify(value);
}

function toPgArrayItem(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return `{${value.map((v) => toPgArrayItem(v) ?? 'NULL').join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(JSON.stringify(value));
  return JSON.stringify(value); // strings quoted and escaped, as Neon does
}

// Output without Neon-Raw-Text-Output: true (json.rs): bool, int2/int4, float4/float8, json and
// arrays become JSON values; everything else (int8, numeric, dates...) stays text.

const BOOL = 16;
const INT2 = 21;
const INT4 = 23;
const FLOAT4 = 700;
const FLOAT8 = 701;
const JSON_OID = 114;
const JSONB = 3802;
/** Built-in array type OID → element type OID (a user-defined type's arrays stay text). */
const ARRAY_ELEMENT: Record<number, number> = {
  1000: BOOL,
  1005: INT2,
  1007: INT4,
  1021: FLOAT4,
  1022: FLOAT8,
  199: JSON_OID,
  3807: JSONB,
};
for (const oid of [
  1001, 1002, 1003, 1009, 1014, 1015, 1016, 1028, 1041, 1115, 1182, 1183, 1185, 1187, 1231, 1270,
  2951, 651, 791, 143, 3643, 3645,
]) {
  ARRAY_ELEMENT[oid] = 0; // text, bytea, int8, varchar, timestamps, numeric, uuid...: strings
}

export function textToJson(value: string, oid: number): unknown {
  const element = ARRAY_ELEMENT[oid];
  if (element !== undefined) return parsePgArray(value, element);
  switch (oid) {
    case BOOL:
      return value === 't';
    case INT2:
    case INT4:
      return Number.parseInt(value, 10);
    case FLOAT4:
    case FLOAT8: {
      const n = Number(value);
      return Number.isFinite(n) ? n : value; // NaN and ±Infinity stay strings
    }
    case JSON_OID:
    case JSONB:
      return JSON.parse(value);
    default:
      return value;
  }
}

function parsePgArray(text: string, element: number): unknown[] {
  let s = text;
  if (s.startsWith('[')) s = s.slice(s.indexOf('=') + 1); // skip bounds like [0:1]=
  let i = 0;
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s.charAt(i))) i++;
  };
  const list = (): unknown[] => {
    skipSpace();
    if (s[i] !== '{') throw new Error('unbalanced array');
    i++;
    const out: unknown[] = [];
    skipSpace();
    if (s[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      out.push(item());
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] !== '}') throw new Error('unbalanced array');
      i++;
      skipSpace();
      return out;
    }
  };
  const item = (): unknown => {
    skipSpace();
    if (s[i] === '{') return list();
    if (s[i] === '"') {
      i++;
      let quoted = '';
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\') i++;
        quoted += s.charAt(i);
        i++;
      }
      if (i >= s.length) throw new Error('unbalanced quoted string');
      i++;
      skipSpace();
      return textToJson(quoted, element);
    }
    let end = i;
    while (end < s.length && s[end] !== ',' && s[end] !== '}') end++;
    const raw = s.slice(i, end).trimEnd();
    i = end;
    return raw === 'NULL' ? null : textToJson(raw, element);
  };
  return list();
}
