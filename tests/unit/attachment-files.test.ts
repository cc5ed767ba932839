/**
 * What a file is and what is kept of it, without a database (src/server/attachments/files.ts,
 * src/domain/attachments.ts): an image declaring a huge canvas is refused before it is decoded; names
 * are made safe; the island's own check of the chosen files.
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, pickedFilesProblem, safeFileName } from '../../src/domain/attachments.ts';
import { prepareFiles } from '../../src/server/attachments/files.ts';
import { hasGpsPointer, heicDeclaring, heicHeader, heicWithGps } from '../support/attachments.ts';

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
    const { prepared, refused } = await prepareFiles([
      { filename: 'bomba.png', data: pngHeader(20_000, 20_000) },
    ]);
    expect(prepared).toEqual([]);
    expect(refused).toEqual([
      expect.objectContaining({
        filename: 'bomba.png',
        reason: 'too-large',
        message: expect.stringContaining('60 megapíxeles'),
      }),
    ]);
  });

  it('turns a HEIC photo into a clean JPEG with its thumbnail: GPS gone, turned once as the phone said', async () => {
    const heic = heicWithGps();
    const before = await sharp(heic).metadata();
    expect(before.compression).toBe('hevc');
    expect(hasGpsPointer(before.exif!)).toBe(true);

    const { prepared, refused } = await prepareFiles([{ filename: 'IMG_0042.HEIC', data: heic }]);
    expect(refused).toEqual([]);
    const [photo] = prepared;
    expect(photo).toMatchObject({ filename: 'IMG_0042.jpg', contentType: 'image/jpeg' });
    const after = await sharp(Buffer.from(photo!.data)).metadata();
    // Stored 96×48 with a quarter turn clockwise (irot, and the same in EXIF): 48 wide, 96 high, turned once.
    expect(after).toMatchObject({ format: 'jpeg', width: 48, height: 96 });
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // The left half (red) is now on top, the right half (blue) below (HEVC at quality 60: near, not equal).
    const { data } = await sharp(Buffer.from(photo!.data)).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 48 + x) * 3, (y * 48 + x) * 3 + 3)];
    expect(pixel(24, 10)[0]).toBeGreaterThan(180);
    expect(pixel(24, 10)[2]).toBeLessThan(80);
    expect(pixel(24, 85)[2]).toBeGreaterThan(180);
    expect(pixel(24, 85)[0]).toBeLessThan(80);
    const thumb = await sharp(Buffer.from(photo!.thumb!)).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 48, height: 96 });
    expect(thumb.exif).toBeUndefined();
  });

  it('refuses a HEIC that declares more than 60 megapixels before decoding it, and one that does not decode', async () => {
    const { prepared, refused } = await prepareFiles([
      { filename: 'enorme.heic', data: heicDeclaring(heicWithGps(), 10_000, 10_000) },
      { filename: 'rota.heic', data: heicHeader() },
    ]);
    expect(prepared).toEqual([]);
    expect(refused.map((file) => [file.filename, file.reason])).toEqual([
      ['enorme.heic', 'too-large'],
      ['rota.heic', 'type'],
    ]);
    expect(refused[0]!.message).toContain('60 megapíxeles');
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
    expect(
      pickedFilesProblem(Array.from({ length: 6 }, (_, index) => ({ name: `${index}.png`, size: 1 }))),
    ).toContain('hasta 5 archivos');
    expect(pickedFilesProblem([{ name: 'grande.pdf', size: MAX_FILE_BYTES + 1 }])).toContain(
      '«grande.pdf» supera los 10 MB',
    );
    expect(
      pickedFilesProblem([1, 2, 3].map((index) => ({ name: `${index}.pdf`, size: MAX_FILE_BYTES - 1 }))),
    ).toContain('más de 20 MB');
    // An empty file input sends one nameless part.
    expect(pickedFilesProblem([{ name: '', size: 0 }])).toBeUndefined();
  });
});
