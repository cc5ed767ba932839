/**
 * What a file is and what is kept of it, without a database (src/server/attachments/files.ts,
 * src/domain/attachments.ts): an image declaring a huge canvas is refused before it is decoded; names
 * are made safe; the island's own check of the chosen files.
 */
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, pickedFilesProblem, safeFileName } from '../../src/domain/attachments.ts';
import { prepareFiles } from '../../src/server/attachments/files.ts';

/** A PNG whose header declares `width`×`height` (its pixels are never there). */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('attachment files', () => {
  it('refuses an image that declares more than 60 megapixels, before decoding it', async () => {
    const { prepared, refused } = await prepareFiles([{ filename: 'bomba.png', data: pngHeader(20_000, 20_000) }]);
    expect(prepared).toEqual([]);
    expect(refused).toEqual([expect.objectContaining({ filename: 'bomba.png', reason: 'too-large', message: expect.stringContaining('60 megapíxeles') })]);
  });

  it('refuses a text file with control characters, an empty file and an unnamed binary', async () => {
    const { refused } = await prepareFiles([
      { filename: 'datos.csv', data: Buffer.from([0x61, 0x00, 0x62]) },
      { filename: 'vacio.txt', data: new Uint8Array() },
      { filename: 'programa.exe', data: Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1') },
    ]);
    expect(refused.map((file) => [file.filename, file.reason])).toEqual([
      ['datos.csv', 'type'],
      ['vacio.txt', 'empty'],
      ['programa.exe', 'type'],
    ]);
  });

  it('makes names safe to store and show', () => {
    expect(safeFileName('C:\\Users\\ana\\captura de pantalla.png')).toBe('captura de pantalla.png');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a\u0000b"<c>.txt')).toBe('abc.txt');
    expect(safeFileName('...')).toBe('archivo');
    expect(safeFileName(`${'x'.repeat(200)}.pdf`)).toHaveLength(120);
    expect(safeFileName(`${'x'.repeat(200)}.pdf`).endsWith('.pdf')).toBe(true);
  });

  it('checks the chosen files in the browser as the server will', () => {
    expect(pickedFilesProblem([{ name: 'a.png', size: 10 }])).toBeUndefined();
    expect(pickedFilesProblem(Array.from({ length: 6 }, (_, index) => ({ name: `${index}.png`, size: 1 })))).toContain('hasta 5 archivos');
    expect(pickedFilesProblem([{ name: 'grande.pdf', size: MAX_FILE_BYTES + 1 }])).toContain('«grande.pdf» supera los 10 MB');
    expect(pickedFilesProblem([1, 2, 3].map((index) => ({ name: `${index}.pdf`, size: MAX_FILE_BYTES - 1 })))).toContain('más de 20 MB');
    // An empty file input sends one nameless part.
    expect(pickedFilesProblem([{ name: '', size: 0 }])).toBeUndefined();
  });
});
