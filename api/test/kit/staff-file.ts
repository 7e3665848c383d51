import ExcelJS from 'exceljs';

/** An .xlsx file of the staff model's columns (the import's template) with these rows. */
export async function staffFile(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Staff');
  sheet.addRow(['Staff number', 'Name', 'Gender', 'Phone', 'Position', 'Year of birth', 'Department']);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}
