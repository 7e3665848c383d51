import { join } from 'node:path';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

/**
 * The files of the codes a resident's app joins a house with: one QR code as PNG, a printable
 * A4 PDF of labelled QR codes (streamed page by page) and an Excel list of invite codes
 * (streamed row by row). A QR code holds exactly the invite code (POST /app/personhouse/join).
 */

/** The subset CJK font shipped with the api (assets/fonts/README.md). */
const LABEL_FONT = join(import.meta.dirname, '../../../assets/fonts/label-cjk.ttf');

export function qrPng(inviteCode: string): Promise<Buffer> {
  return QRCode.toBuffer(inviteCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 480 });
}

/**
 * Draws the QR code of `text` as vector squares (sharp at any print size, and far cheaper than
 * embedding a picture per cell: 1,000 cells stay within seconds).
 */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + 2 * quiet);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (qr.modules.get(r, c)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
  doc.fillColor('#000000').fill();
}

/** Label lines: 9 pt, shrunk to 6 pt when a line is too wide, then cut with an ellipsis. */
const LABEL = { size: 9, minSize: 6, lineHeight: 11 };

/**
 * Draws `text` centred on ONE line of `width`. Wrapping a long estate or block name used to push
 * the unit's own line out of its cell, so a line is made smaller, then shortened, never wrapped.
 */
function fitLine(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number): void {
  let size = LABEL.size;
  doc.fontSize(size);
  while (size > LABEL.minSize && doc.widthOfString(text) > width) doc.fontSize(--size);
  let shown = text;
  if (doc.widthOfString(shown) > width) {
    while (shown.length > 1 && doc.widthOfString(`${shown}…`) > width) shown = shown.slice(0, -1);
    shown = `${shown}…`;
  }
  doc.text(shown, x, y, { width, align: 'center', lineBreak: false });
}

/** A4 in points, 3 × 4 cells of one code each. */
const PAGE = { width: 595.28, height: 841.89, margin: 36 };
export const CELLS = { columns: 3, rows: 4 };

/**
 * Writes the PDF of `codes` to `out`: per cell the QR code, then `title` (the estate) and the
 * house's label lines (already in the caller's language).
 */
export async function writeQrPdf(
  out: Writable,
  codes: { inviteCode: string; lines: string[] }[],
  title: string,
): Promise<void> {
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, autoFirstPage: false, info: { Title: title } });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);
  doc.registerFont('label', LABEL_FONT);
  const cellW = (PAGE.width - 2 * PAGE.margin) / CELLS.columns;
  const cellH = (PAGE.height - 2 * PAGE.margin) / CELLS.rows;
  const perPage = CELLS.columns * CELLS.rows;
  const qrSize = Math.min(cellW, cellH) - 64;
  for (let i = 0; i < codes.length; i++) {
    if (i % perPage === 0) {
      doc.addPage();
      await new Promise(setImmediate); // let the finished page flow out before drawing the next
    }
    const col = (i % perPage) % CELLS.columns;
    const row = Math.floor((i % perPage) / CELLS.columns);
    const x = PAGE.margin + col * cellW;
    const y = PAGE.margin + row * cellH;
    doc
      .lineWidth(0.5)
      .strokeColor('#999999')
      .rect(x + 2, y + 2, cellW - 4, cellH - 4)
      .stroke();
    drawQr(doc, codes[i].inviteCode, x + (cellW - qrSize) / 2, y + 8, qrSize);
    // A bookmark per cell: the PDF's outline lists every house (and a test counts the cells by it).
    doc.outline.addItem(codes[i].lines.join(' · ') || codes[i].inviteCode);
    doc.font('label').fillColor('#000000');
    const lines = [title, ...codes[i].lines];
    for (let l = 0; l < lines.length; l++)
      fitLine(doc, lines[l], x + 6, y + 14 + qrSize + l * LABEL.lineHeight, cellW - 12);
  }
  if (codes.length === 0) doc.addPage();
  doc.end();
  await done;
}

/** Writes an Excel file with one row per house: its label columns and its invite code. */
export async function writeInviteCodesXlsx(
  out: Writable,
  sheetName: string,
  headers: string[],
  rows: string[][],
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = headers.map((header) => ({ header, width: Math.max(14, header.length + 4) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
}
