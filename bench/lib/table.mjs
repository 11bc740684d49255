// A table is `{title, columns: [name], rows: [[cell]], notes?: [text]}` with string cells,
// printed padded on the console and as GitHub Markdown in the summaries.

const isNumeric = (cell) => /^[-\d.,/ %x]+$/.test(cell) && /\d/.test(cell);

export function formatConsoleTable({ title, columns, rows, notes = [] }) {
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...rows.map((row) => String(row[index]).length)),
  );
  const line = (cells) =>
    cells
      .map((cell, index) =>
        index > 0 && isNumeric(String(cell))
          ? String(cell).padStart(widths[index])
          : String(cell).padEnd(widths[index]),
      )
      .join('  ');
  return [
    `\n== ${title}`,
    line(columns),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
    ...notes.map((note) => `  ${note}`),
  ].join('\n');
}

const escapeCell = (cell) => String(cell).replaceAll('|', '\\|');

export function formatMarkdownTable({ title, columns, rows, notes = [] }) {
  const align = columns.map((_, index) => (rows.some((row) => isNumeric(String(row[index]))) ? '---:' : '---'));
  return [
    `### ${title}`,
    '',
    `| ${columns.map(escapeCell).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
    ...(notes.length ? ['', ...notes.map((note) => `- ${note}`)] : []),
    '',
  ].join('\n');
}
