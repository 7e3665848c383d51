import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** Loads a module as exceljs itself does (the same instance). */
const requireFromExceljs = createRequire(createRequire(import.meta.url).resolve('exceljs'));

/**
 * exceljs's streaming reader walks the zip with unzipper's `Parse`, which emits 'end' itself as soon
 * as its input is used up (unzipper 0.10–0.12, lib/parse.js: `on('finish', () => emit('end'))`),
 * while entries it has already parsed may still wait in its readable buffer. exceljs's loop over the
 * entries stops at that 'end', so when the parser ran ahead of it (a busy server: inflating and
 * temporary files race) the entries after the first worksheet were dropped: xl/sharedStrings.xml
 * among them, and a good file read as rows of empty cells ("The file has no rows to import").
 *
 * The fix: that early 'end' is dropped and the stream is ended the normal way instead
 * (`push(null)`), so Node emits 'end' once every buffered entry has been read. A truncated file,
 * where unzipper never reaches the end record, still ends.
 */
function fixUnzipperEnd(): void {
  const unzipper = requireFromExceljs('unzipper') as {
    Parse: ((opts?: object) => Readable) & { patchedEnd?: true };
  };
  if (unzipper.Parse.patchedEnd) return;
  const parse = unzipper.Parse;
  const patched = Object.assign(
    (opts?: object): Readable => {
      const zip = parse(opts);
      const emit = zip.emit.bind(zip);
      zip.emit = (event: string | symbol, ...args: unknown[]): boolean => {
        // Node's own 'end' is emitted after it sets endEmitted; unzipper's early one is not.
        // A second push(null) (unzipper's own, after the end record) is ignored by Node.
        if (event === 'end' && !zip.readableEnded) return (zip.push(null), false);
        return emit(event, ...args);
      };
      return zip;
    },
    parse,
    { patchedEnd: true as const },
  );
  unzipper.Parse = patched;
}
fixUnzipperEnd();

/**
 * A worksheet that comes in the zip before the shared strings is copied by exceljs to a temporary
 * file (with an open descriptor), deleted only when the reader is walked to its end: a caller that
 * stops early, or a file that turns out broken, left both behind for the life of the process. The
 * copies made while one file is read are recorded here (through exceljs's `tmp`) and removed by
 * {@link dataRows} whatever happens.
 */
const worksheetCopies = new AsyncLocalStorage<Set<() => void>>();
function recordWorksheetCopies(): void {
  type Made = (err: Error | null, path: string, fd: number, remove: () => void) => void;
  const tmp = requireFromExceljs('tmp') as { file: ((...args: unknown[]) => void) & { recorded?: true } };
  if (tmp.file.recorded) return;
  const file = tmp.file;
  tmp.file = Object.assign(
    (...args: unknown[]) => {
      const made = args.pop() as Made;
      const copies = worksheetCopies.getStore();
      file(...args, (err: Error | null, path: string, fd: number, remove: () => void) => {
        if (!err) copies?.add(remove);
        made(err, path, fd, remove);
      });
    },
    { recorded: true as const },
  );
}
recordWorksheetCopies();

/** A cell's text, whatever exceljs made of it (number, rich text, formula result, hyperlink). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; result?: unknown; text?: unknown };
    if (v.richText)
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if (value instanceof Date) return value.toISOString();
    return '';
  }
  return String(value).trim();
}

/** The data rows of the first sheet (row 1 holds the headers), as texts, streamed; blank rows are skipped. */
export async function* dataRows(path: string): AsyncGenerator<{ row: number; cells: string[] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // exceljs 4.4 reads a worksheet that comes in the zip before xl/workbook.xml through
  // `this.model.sheets` while `model` is still unset, and throws (exceljs issue #962). Zip writers
  // (exceljs's own among them) do not fix the entry order, so a good file was refused now and
  // then as "not an Excel file". An empty model until workbook.xml arrives avoids it.
  Object.assign(reader, { model: { sheets: [] } });
  const copies = new Set<() => void>();
  const sheets = reader[Symbol.asyncIterator]();
  try {
    const first = await worksheetCopies.run(copies, () => sheets.next());
    if (first.done) return;
    try {
      for await (const row of first.value) {
        if (row.number === 1) continue;
        const values = (row.values as unknown[]).slice(1).map(cellText);
        if (values.every((v) => v === '')) continue;
        yield { row: row.number, cells: values };
      }
    } finally {
      stopReading(first.value);
    }
  } finally {
    await sheets.return?.(undefined).catch(() => undefined);
    for (const remove of copies) remove();
  }
}

/** Closes a worksheet's input when it is read from exceljs's temporary copy (a file stream). */
function stopReading(sheet: unknown): void {
  (sheet as { iterator?: { destroy?: () => void } }).iterator?.destroy?.();
}
