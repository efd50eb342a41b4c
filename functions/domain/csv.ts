/**
 * CSV for people who open it in a spreadsheet: RFC 4180 quoting, and text that a spreadsheet would
 * run as a formula (starting with `=`, `+`, `@`, a tab or carriage return, or `-` when not a
 * number) starts with `'`, so a company's own reference can never execute in finance's Excel.
 * The ledger export (local/ledger-export.ts) and the dashboard's Activity export both use it.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+@\t\r]/.test(text) || (text.startsWith('-') && !/^-\d+(\.\d+)?$/.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV lines, each ending in a newline; the header line first unless `header` is false. */
export function toCsv<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[], header = true): string {
  const lines = rows.map((row) => columns.map((column) => csvCell(row[column])).join(','));
  if (header) lines.unshift(columns.join(','));
  return lines.length ? `${lines.join('\n')}\n` : '';
}
