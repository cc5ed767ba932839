/**
 * Sample files of every type the desk takes (issue 21, "Attachments"), made here rather than shipped:
 * images drawn with sharp (a JPEG with GPS in its EXIF among them), a PDF, text, and the Office files as
 * real ZIP archives with their usual parts; plus what must be refused (an ELF executable renamed .pdf).
 */
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

/** A ZIP archive of stored (uncompressed) entries: enough for file-type to read an Office file's parts. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text, 'utf8');
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

const CONTENT_TYPES = (main: string, type: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${main}" ContentType="${type}"/></Types>`;

/** An image of `width`×`height`, a colour gradient (so a thumbnail differs from it). */
async function drawn(width: number, height: number): Promise<Sharp> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i += 1) {
    pixels[i * 3] = (i * 7) % 256;
    pixels[i * 3 + 1] = (i * 3) % 256;
    pixels[i * 3 + 2] = 128;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/** A JPEG whose EXIF says where it was taken (GPS: Santo Domingo) and that it must be turned (orientation 6). */
export async function jpegWithGps(): Promise<Buffer> {
  return (await drawn(64, 32))
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'Telefono', Model: 'Camara' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '18/1 28/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '69/1 53/1 0/1',
      },
    })
    .toBuffer();
}

/** A minimal HEIC header (an `ftyp` box of brand heic): what file-type reads; no image follows, so it does not decode. */
export function heicHeader(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftyp', 4, 'latin1');
  box.write('heic', 8, 'latin1');
  box.writeUInt32BE(0, 12);
  box.write('mif1heic', 16, 'latin1');
  return Buffer.concat([box, Buffer.alloc(64)]);
}

/**
 * A real HEIC photo with GPS in its EXIF, taken sideways as a phone does: stored 96×48 (left half red,
 * right half blue) with an `irot` of 270° anticlockwise and EXIF orientation 6, both saying "turn it a
 * quarter clockwise", so it shows 48×96, red on top. 931 bytes, the only sample shipped rather than made:
 * libheif-js only decodes. Made once with Debian's bookworm tools (none needed to run the tests):
 *   a 96×48 JPEG drawn with sharp (the halves above), then
 *   exiftool -GPSLatitude=40.4168 -GPSLatitudeRef=N -GPSLongitude=3.7038 -GPSLongitudeRef=W \
 *     -Orientation#=6 -Make=Apple -Model='iPhone 15' src.jpg     (libimage-exiftool-perl 12.57)
 *   heif-enc -q 60 -o foto-gps.heic src.jpg                      (libheif-examples 1.15.1, x265;
 *     it copies the EXIF block as it is, but writes no `irot`)
 *   and the `irot` added by hand: a 9-byte box (angle 3) at the end of `ipco`, an essential association
 *   of it for the primary item in `ipma`, the sizes of `ipco`, `iprp` and `meta` and the `iloc`
 *   offsets into `mdat` moved on by the 10 bytes added (`exiftool` then reads Rotation 270).
 */
export function heicWithGps(): Buffer {
  return readFileSync(new URL('../fixtures/attachments/foto-gps.heic', import.meta.url));
}

/** `heic` with every `ispe` (the declared image size) set to `width`×`height`: its pixels stay as they are. */
export function heicDeclaring(heic: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(heic);
  for (let at = patched.indexOf('ispe'); at !== -1; at = patched.indexOf('ispe', at + 4)) {
    patched.writeUInt32BE(width, at + 8);
    patched.writeUInt32BE(height, at + 12);
  }
  return patched;
}

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** Every allowed type: file name, bytes and the content type it must be stored as (a HEIC as a JPEG named .jpg). */
export async function allowedSamples(): Promise<
  Array<{ filename: string; data: Buffer; contentType: string }>
> {
  const image = await drawn(40, 30);
  return [
    { filename: 'captura.png', data: await image.clone().png().toBuffer(), contentType: 'image/png' },
    { filename: 'foto.jpg', data: await image.clone().jpeg().toBuffer(), contentType: 'image/jpeg' },
    { filename: 'pantalla.webp', data: await image.clone().webp().toBuffer(), contentType: 'image/webp' },
    { filename: 'animacion.gif', data: await image.clone().gif().toBuffer(), contentType: 'image/gif' },
    { filename: 'foto-iphone.heic', data: heicWithGps(), contentType: 'image/jpeg' },
    { filename: 'factura.pdf', data: PDF, contentType: 'application/pdf' },
    {
      filename: 'notas.txt',
      data: Buffer.from('Error 0x31 al imprimir\nSegunda línea\n'),
      contentType: 'text/plain; charset=utf-8',
    },
    {
      filename: 'servidor.log',
      data: Buffer.from('2025-03-03 10:00 ERROR impresora\n'),
      contentType: 'text/plain; charset=utf-8',
    },
    {
      filename: 'ventas.csv',
      data: Buffer.from('fecha;total\n2025-03-03;1500\n'),
      contentType: 'text/csv; charset=utf-8',
    },
    {
      filename: 'reporte.xlsx',
      data: zipOf({
        '[Content_Types].xml': CONTENT_TYPES(
          'xl/workbook.xml',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
        ),
        'xl/workbook.xml': '<workbook/>',
      }),
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    },
    {
      filename: 'carta.docx',
      data: zipOf({
        '[Content_Types].xml': CONTENT_TYPES(
          'word/document.xml',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
        ),
        'word/document.xml': '<document/>',
      }),
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    },
  ];
}

/** An ELF executable's first bytes, renamed to look like a PDF. */
export function renamedExecutable(): { filename: string; data: Buffer } {
  const elf = Buffer.alloc(128);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(elf, 0);
  elf.writeUInt16LE(2, 16); // ET_EXEC
  elf.writeUInt16LE(0x3e, 18); // x86-64
  return { filename: 'factura.pdf', data: elf };
}

/** Whether JPEG bytes still carry an EXIF GPS block (the GPS IFD pointer, tag 0x8825, either byte order). */
export function hasGpsPointer(data: Uint8Array): boolean {
  const bytes = Buffer.from(data);
  return bytes.includes(Buffer.from([0x88, 0x25])) || bytes.includes(Buffer.from([0x25, 0x88]));
}
