/**
 * One index of the bundled data as the build writes it (compact.ts): its keys, in the order a
 * Map iterates them, with a permutation of them sorted for binary search, and each key's
 * values as indices into one table of strings. JSON of strings and numbers only: reading it
 * makes a few large arrays, not an object per entry, and an entry is decoded only when asked for.
 */

/** A value as the table stores it: strings, or null. */
export type Cells = (string | null)[];

export interface TableFile {
  /** What the cells are coded against: a cell is an index into it, or -1 for null. */
  strings: string[];
  /** The keys in the order they were added. */
  keys: string[];
  /** Indices into `keys`, in the order of the keys sorted (by `<`, as `find` compares them). */
  sorted: number[];
  /** Where each key's cells start in `cells`; the next key's start is where they end. */
  start: number[];
  cells: number[];
}

/** An index as the lookups read it: an entry by its key, or every entry in the order added (as a Map has them). */
export interface Table<V> extends Iterable<[string, V]> {
  get(key: string): V | undefined;
}

/** Writes `entries` as a table, each value as the cells `cellsOf` gives. */
export function tableFile<V>(entries: Iterable<[string, V]>, cellsOf: (value: V) => Cells): TableFile {
  const strings: string[] = [];
  const codes = new Map<string, number>();
  const code = (s: string | null): number => {
    if (s === null) return -1;
    let c = codes.get(s);
    if (c === undefined) {
      c = strings.push(s) - 1;
      codes.set(s, c);
    }
    return c;
  };
  const keys: string[] = [];
  const start: number[] = [];
  const cells: number[] = [];
  for (const [key, value] of entries) {
    keys.push(key);
    start.push(cells.length);
    for (const cell of cellsOf(value)) cells.push(code(cell));
  }
  const sorted = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  return { strings, keys, sorted, start, cells };
}

/** A table read from its file on first use; each entry decoded, by `decode`, when it is asked for. */
export class CompactTable<V> implements Table<V> {
  private file: TableFile | null = null;

  constructor(
    private readonly read: () => TableFile,
    private readonly decode: (cells: Cells, key: string) => V,
  ) {}

  get(key: string): V | undefined {
    const file = this.loaded();
    const i = find(file, key);
    return i < 0 ? undefined : this.at(file, i);
  }

  *[Symbol.iterator](): Iterator<[string, V]> {
    const file = this.loaded();
    for (let i = 0; i < file.keys.length; i++) yield [file.keys[i], this.at(file, i)];
  }

  private loaded(): TableFile {
    this.file ??= this.read();
    return this.file;
  }

  private at(file: TableFile, i: number): V {
    const end = i + 1 < file.start.length ? file.start[i + 1] : file.cells.length;
    const cells: Cells = [];
    for (let c = file.start[i]; c < end; c++) cells.push(file.cells[c] < 0 ? null : file.strings[file.cells[c]]);
    return this.decode(cells, file.keys[i]);
  }
}

/** The index in `keys` of `key`, or -1: a binary search of the sorted permutation. */
function find({ keys, sorted }: TableFile, key: string): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const candidate = keys[sorted[mid]];
    if (candidate === key) return sorted[mid];
    if (candidate < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
