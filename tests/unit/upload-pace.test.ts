/**
 * The pace of posted files (src/server/attachments/pace.ts): a token bucket shared by every upload of the
 * process, a second's worth in a burst, each chunk past it held for its share; a form read through it
 * comes out whole.
 */
import { describe, expect, it, vi } from 'vitest';
import { UploadPace } from '../../src/server/attachments/pace.ts';
import { readUploadForm } from '../../src/server/attachments/upload.ts';

const MB = 1_000_000;

describe('the pace of uploads', () => {
  it('lets a second worth through at once, then holds each chunk for its share, all uploads together', () => {
    const pace = new UploadPace(2);
    // A burst of 2 MB (one second at 2 MB/s) passes without waiting.
    expect(pace.take(1 * MB, 10_000)).toBe(0);
    expect(pace.take(1 * MB, 10_000)).toBe(0);
    // Past it, each MB waits half a second more, whichever upload it belongs to.
    expect(pace.take(1 * MB, 10_000)).toBeCloseTo(500);
    expect(pace.take(1 * MB, 10_000)).toBeCloseTo(1000);
    // Time paid back: at 11.5 s the four MB are paid for, and the bucket fills again up to the burst only.
    expect(pace.take(1 * MB, 11_500)).toBeCloseTo(0);
    expect(pace.take(2 * MB, 60_000)).toBe(0);
    expect(pace.take(1 * MB, 60_000)).toBeCloseTo(500);
  });

  it('holds the stream itself: a chunk past the burst comes out only when its time comes', async () => {
    vi.useFakeTimers();
    try {
      const pace = new UploadPace(1);
      const stream = pace.stream();
      const out: number[] = [];
      stream.on('data', (chunk: Buffer) => out.push(chunk.length));
      stream.write(Buffer.alloc(MB));
      stream.write(Buffer.alloc(MB));
      await vi.advanceTimersByTimeAsync(0);
      expect(out).toEqual([MB]);
      await vi.advanceTimersByTimeAsync(900);
      expect(out).toEqual([MB]);
      await vi.advanceTimersByTimeAsync(200);
      expect(out).toEqual([MB, MB]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands the form over whole when read through it', async () => {
    const form = new FormData();
    form.append('problema', 'No imprime');
    form.append('archivos', new Blob([new Uint8Array(300_000).fill(0x61)]), 'registro.txt');
    const request = new Request('http://127.0.0.1/soporte/nueva?_action=incidents.create', {
      method: 'POST',
      body: form,
    });
    const read = await readUploadForm(request, async () => {}, new UploadPace(1000));
    expect(read.problem).toBeNull();
    expect(read.fields.get('problema')).toBe('No imprime');
    expect(read.files.map((file) => [file.filename, file.data.byteLength])).toEqual([
      ['registro.txt', 300_000],
    ]);
  });
});
