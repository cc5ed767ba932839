/**
 * A form with files read as it streams (src/server/attachments/upload.ts): text fields first, the check
 * before the first file's bytes are kept (a refusal keeps none), a file over 10 MB kept as `tooLarge`
 * without its bytes, more than 5 files or 20 MB together refused whole.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/domain/attachments.ts';
import { readUploadForm } from '../../src/server/attachments/upload.ts';
import { ACTION_BODY_BYTES, ARTICLE_BODY_BYTES, bodyLimit } from '../../src/server/http/security.ts';
import { ARTICLE_LIMITS } from '../../src/domain/articles.ts';

function post(parts: Array<[string, string | Blob, string?]>): Request {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  return new Request('http://127.0.0.1/soporte/nueva?_action=incidents.create', {
    method: 'POST',
    body: form,
  });
}

const bytes = (size: number, fill = 0x61) => new Blob([new Uint8Array(size).fill(fill)]);

describe('a form with files, streamed', () => {
  it('keeps the text fields and the files, after the check saw the fields', async () => {
    const seen: string[] = [];
    const form = await readUploadForm(
      post([
        ['problema', 'No imprime'],
        ['startedAt', '123.abc'],
        ['archivos', bytes(5), 'uno.txt'],
        ['archivos', bytes(7), 'dos.txt'],
        ['archivos', new Blob([]), ''],
      ]),
      async (fields) => {
        seen.push(fields.get('problema') ?? '', fields.get('startedAt') ?? '');
      },
    );
    expect(seen).toEqual(['No imprime', '123.abc']);
    expect(form.fields.get('problema')).toBe('No imprime');
    expect(form.files.map((file) => [file.filename, file.data.byteLength])).toEqual([
      ['uno.txt', 5],
      ['dos.txt', 7],
    ]);
    expect(form.problem).toBeNull();
  });

  it('keeps no file when the check refuses, and still reads the fields', async () => {
    const refusal = new Error('honeypot');
    const form = await readUploadForm(
      post([
        ['website', 'spam'],
        ['archivos', bytes(1000), 'a.txt'],
      ]),
      async () => {
        throw refusal;
      },
    );
    expect(form.refusal).toBe(refusal);
    expect(form.files).toEqual([]);
    expect(form.fields.get('website')).toBe('spam');
  });

  it('does not run the check for a form without files', async () => {
    let ran = false;
    const form = await readUploadForm(
      post([
        ['problema', 'x'],
        ['archivos', new Blob([]), ''],
      ]),
      async () => {
        ran = true;
      },
    );
    expect(ran).toBe(false);
    expect(form.files).toEqual([]);
  });

  it('hands a file over 10 MB without its bytes, and keeps the others', async () => {
    const form = await readUploadForm(
      post([
        ['archivos', bytes(MAX_FILE_BYTES + 10), 'grande.pdf'],
        ['archivos', bytes(3), 'chico.txt'],
      ]),
      async () => {},
    );
    expect(form.files.map((file) => [file.filename, file.tooLarge ?? false, file.data.byteLength])).toEqual([
      ['grande.pdf', true, 0],
      ['chico.txt', false, 3],
    ]);
    expect(form.problem).toBeNull();
  });

  it('refuses more than 5 files, or more than 20 MB together, keeping none', async () => {
    const six = await readUploadForm(
      post(
        Array.from(
          { length: 6 },
          (_, index) => ['archivos', bytes(2), `f${index}.txt`] as [string, Blob, string],
        ),
      ),
      async () => {},
    );
    expect(six.problem).toBe('too-many');
    expect(six.files).toEqual([]);
    const heavy = await readUploadForm(
      post(
        Array.from(
          { length: 3 },
          (_, index) => ['archivos', bytes(MAX_FILE_BYTES - 1), `f${index}.bin`] as [string, Blob, string],
        ),
      ),
      async () => {},
    );
    expect(heavy.problem).toBe('total-too-large');
    expect(heavy.files).toEqual([]);
  });
});

describe('the body limit of a form with files (the choke point)', () => {
  const multipart = 'multipart/form-data; boundary=x';
  it('is 21 MiB for a multipart post to an action that takes files, by page form or RPC', () => {
    expect(bodyLimit('/soporte/nueva', '?_action=incidents.create', multipart)).toBe(21 * 1024 * 1024);
    expect(bodyLimit('/soporte/seguimiento', '?_action=incidents.answer', multipart)).toBe(21 * 1024 * 1024);
    expect(bodyLimit('/admin/incidencias/INC-20250101-1000', '?_action=incidents.addEntry', multipart)).toBe(
      21 * 1024 * 1024,
    );
    expect(bodyLimit('/_actions/incidents.create', '', multipart)).toBe(21 * 1024 * 1024);
  });
  it("stays the actions' 64 KiB for any other body or action", () => {
    expect(
      bodyLimit('/soporte/nueva', '?_action=incidents.create', 'application/x-www-form-urlencoded'),
    ).toBe(ACTION_BODY_BYTES);
    expect(bodyLimit('/soporte', '?_action=contact.send', multipart)).toBe(ACTION_BODY_BYTES);
    expect(bodyLimit('/_actions/incidents.setState', '', multipart)).toBe(ACTION_BODY_BYTES);
  });
});

describe("the article editor's body limit ('Contenido', issue 23)", () => {
  it('takes an article of 100,000 characters posted to its page or to its action, and nothing else that large', () => {
    expect(
      bodyLimit('/admin/contenido/3', '?_action=content.save', 'application/x-www-form-urlencoded'),
    ).toBe(ARTICLE_BODY_BYTES);
    expect(
      bodyLimit('/admin/contenido/nuevo', '?_action=content.save', 'application/x-www-form-urlencoded'),
    ).toBe(ARTICLE_BODY_BYTES);
    expect(bodyLimit('/_actions/content.save', '', 'application/x-www-form-urlencoded')).toBe(
      ARTICLE_BODY_BYTES,
    );
    expect(
      bodyLimit('/admin/contenido/3', '?_action=clients.create', 'application/x-www-form-urlencoded'),
    ).toBe(ACTION_BODY_BYTES);
    expect(bodyLimit('/admin/clientes', '?_action=content.save', 'application/x-www-form-urlencoded')).toBe(
      ACTION_BODY_BYTES,
    );
    // The longest text form-encoded at its worst (a 3-byte character is 9; a 4-byte one counts twice in the limit), with room for the other fields.
    expect(encodeURIComponent('€'.repeat(ARTICLE_LIMITS.body)).length + 64 * 1024).toBeLessThan(
      ARTICLE_BODY_BYTES,
    );
  });
});
