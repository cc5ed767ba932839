import { describe, expect, it } from 'vitest';
import {
  mapLink,
  parseWebhook,
  parseWebhookBytes,
  STATUS_LABELS,
  statusText,
} from '../../src/server/channels/whatsapp/payload.ts';
import { ratingRows } from '../../src/server/channels/whatsapp/ratings.ts';
import {
  contacts,
  documentMessage,
  imageMessage,
  interactiveButtonReply,
  interactiveListReply,
  location,
  mediaMessage,
  metaJson,
  rawMessage,
  reaction,
  status,
  templateButtonReply,
  textMessage,
  unsupportedMessage,
  webhookBody,
} from '../support/meta-standin.ts';

const ANA = '18095550100';
const T = 1_765_119_600; // 2025-12-07T15:00:00Z
const at = { timestamp: T };

/** The text example of Meta's messages webhook reference, as the page prints it. */
const DOCUMENTED_TEXT = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
            messages: [
              {
                from: '16505551234',
                id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
                timestamp: '1749416383',
                type: 'text',
                text: { body: 'Does it come in another color?' },
              },
            ],
          },
          field: 'messages',
        },
      ],
    },
  ],
};

const one = (part: ReturnType<typeof textMessage>) => {
  const parsed = parseWebhook(webhookBody([part]));
  expect(parsed.skipped).toEqual([]);
  expect(parsed.messages).toHaveLength(1);
  return parsed.messages[0]!;
};

describe('parseWebhook: inbound messages', () => {
  it('reads the documented text example', () => {
    const parsed = parseWebhook(DOCUMENTED_TEXT);
    expect(parsed).toEqual({
      messages: [
        {
          wamid: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
          from: '16505551234',
          profileName: 'Sheena Nelson',
          phoneNumberId: '106540352242922',
          timestamp: new Date(1749416383 * 1000),
          type: 'text',
          originalType: 'text',
          text: 'Does it come in another color?',
          contextId: null,
          forwarded: false,
          errors: [],
        },
      ],
      statuses: [],
      errors: [],
      skipped: [],
    });
  });

  it('reads a Spanish text sent with \\uXXXX escapes, and the quoted message of a reply', () => {
    const body = metaJson(
      webhookBody([
        textMessage(ANA, 'María Peña', 'Sigue sin señal 😕', { ...at, contextId: 'wamid.NUESTRO' }),
      ]),
    );
    expect(body).toContain('Pe\\u00f1a');
    const message = parseWebhookBytes(Buffer.from(body)).messages[0]!;
    expect(message).toMatchObject({
      from: ANA,
      profileName: 'María Peña',
      text: 'Sigue sin señal 😕',
      contextId: 'wamid.NUESTRO',
      timestamp: new Date(T * 1000),
    });
  });

  it('reads an image with its caption and a document with its file name', () => {
    const image = one(
      imageMessage(
        ANA,
        'Ana',
        { mediaId: '111', mimeType: 'image/png', sha256: 'abc=', caption: 'La pantalla' },
        at,
      ),
    );
    expect(image).toMatchObject({
      type: 'image',
      text: 'La pantalla',
      media: { id: '111', mimeType: 'image/png', sha256: 'abc=', caption: 'La pantalla' },
    });
    expect(image.media).not.toHaveProperty('filename');
    const document = one(documentMessage(ANA, 'Ana', { mediaId: '222', filename: 'Factura 12.pdf' }, at));
    expect(document).toMatchObject({
      type: 'document',
      text: '',
      media: { id: '222', mimeType: 'application/pdf', filename: 'Factura 12.pdf' },
    });
  });

  it('reads audio (a voice note), video and sticker', () => {
    expect(
      one(
        mediaMessage(ANA, 'Ana', 'audio', { mediaId: '3', mimeType: 'audio/ogg; codecs=opus', voice: true }),
      ),
    ).toMatchObject({
      type: 'audio',
      media: { id: '3', mimeType: 'audio/ogg; codecs=opus', voice: true },
    });
    expect(
      one(mediaMessage(ANA, 'Ana', 'video', { mediaId: '4', mimeType: 'video/mp4', caption: 'Así falla' })),
    ).toMatchObject({
      type: 'video',
      text: 'Así falla',
      media: { id: '4', mimeType: 'video/mp4' },
    });
    expect(one(mediaMessage(ANA, 'Ana', 'sticker', { mediaId: '5', mimeType: 'image/webp' }))).toMatchObject({
      type: 'sticker',
      media: { id: '5', mimeType: 'image/webp' },
    });
  });

  it('turns a location into a Spanish text with a map link, its name and address', () => {
    const message = one(
      location(ANA, 'Ana', {
        latitude: 18.4719,
        longitude: -69.9388,
        name: 'Torre Citi',
        address: 'Av. Winston Churchill 1099',
      }),
    );
    expect(message.type).toBe('location');
    expect(message.text).toBe(
      'Ubicación compartida por WhatsApp\nTorre Citi — Av. Winston Churchill 1099\nhttps://www.google.com/maps?q=18.4719,-69.9388',
    );
    expect(message.location).toEqual({
      latitude: 18.4719,
      longitude: -69.9388,
      name: 'Torre Citi',
      address: 'Av. Winston Churchill 1099',
      url: mapLink(18.4719, -69.9388),
    });
    const bare = one(location(ANA, 'Ana', { latitude: -0.5, longitude: 100 }));
    expect(bare.text).toBe('Ubicación compartida por WhatsApp\nhttps://www.google.com/maps?q=-0.5,100');
  });

  it('turns shared contacts into a text listing names and phones', () => {
    const message = one(
      contacts(ANA, 'Ana', [
        { name: 'Luis Gómez', phones: ['+1 809-555-0111', '+1 829-555-0122'] },
        { name: 'Contabilidad', phones: ['+1 809-555-0133'] },
      ]),
    );
    expect(message.type).toBe('contacts');
    expect(message.text).toBe(
      'Contactos compartidos por WhatsApp:\n- Luis Gómez: +1 809-555-0111, +1 829-555-0122\n- Contabilidad: +1 809-555-0133',
    );
    expect(one(contacts(ANA, 'Ana', [{ name: 'Sin Teléfono', phones: [] }])).text).toBe(
      'Contacto compartido por WhatsApp:\n- Sin Teléfono (sin teléfono)',
    );
  });

  it('keeps the id and title of a list reply and a button reply, and reads our rating rows', () => {
    const [excelente, , regular] = ratingRows('nt_42');
    const list = one(
      interactiveListReply(
        ANA,
        'Ana',
        { ...regular!, description: 'Tres de cinco' },
        { contextId: 'wamid.LISTA' },
      ),
    );
    expect(list).toMatchObject({
      type: 'interactive',
      text: 'Regular',
      contextId: 'wamid.LISTA',
      reply: { kind: 'list_reply', id: 'rating:nt_42:3', title: 'Regular', description: 'Tres de cinco' },
      ratingReply: { reference: 'nt_42', value: 3, title: 'Regular' },
    });
    const button = one(interactiveButtonReply(ANA, 'Ana', excelente!));
    expect(button).toMatchObject({
      reply: { kind: 'button_reply', id: 'rating:nt_42:5' },
      ratingReply: { value: 5 },
    });
    const other = one(interactiveListReply(ANA, 'Ana', { id: 'menu:soporte', title: 'Soporte' }));
    expect(other.reply).toEqual({ kind: 'list_reply', id: 'menu:soporte', title: 'Soporte' });
    expect(other).not.toHaveProperty('ratingReply');
  });

  it("reads a template's quick-reply button by its payload", () => {
    const message = one(templateButtonReply(ANA, 'Ana', { payload: 'rating:tok9:2', text: 'Mal' }));
    expect(message).toMatchObject({
      type: 'button',
      text: 'Mal',
      reply: { kind: 'button', id: 'rating:tok9:2', title: 'Mal' },
      ratingReply: { reference: 'tok9', value: 2 },
    });
  });

  it('reads a reaction and its removal', () => {
    expect(one(reaction(ANA, 'Ana', 'wamid.NUESTRO', '👍'))).toMatchObject({
      type: 'reaction',
      text: 'Reaccionó con 👍',
      reaction: { messageId: 'wamid.NUESTRO', emoji: '👍' },
    });
    expect(one(reaction(ANA, 'Ana', 'wamid.NUESTRO'))).toMatchObject({
      text: 'Quitó su reacción',
      reaction: { messageId: 'wamid.NUESTRO', emoji: null },
    });
  });

  it('records an unsupported message and a type it does not read as such, in Spanish', () => {
    const unsupported = one(unsupportedMessage(ANA, 'Ana'));
    expect(unsupported).toMatchObject({
      type: 'unsupported',
      originalType: 'unsupported',
      text: 'Mensaje de WhatsApp de un tipo no admitido (Message type is currently not supported.)',
      errors: [
        { code: 131051, title: 'Message type unknown', details: 'Message type is currently not supported.' },
      ],
    });
    const order = one(
      rawMessage(ANA, 'Ana', {
        from: ANA,
        id: 'wamid.ORDER',
        timestamp: String(T),
        type: 'order',
        order: {},
      }),
    );
    expect(order).toMatchObject({
      type: 'unsupported',
      originalType: 'order',
      text: 'Mensaje de WhatsApp de un tipo no admitido (order)',
    });
    const flow = one(
      rawMessage(ANA, 'Ana', {
        from: ANA,
        id: 'wamid.NFM',
        timestamp: String(T),
        type: 'interactive',
        interactive: { type: 'nfm_reply', nfm_reply: {} },
      }),
    );
    expect(flow).toMatchObject({ type: 'unsupported', originalType: 'interactive/nfm_reply' });
  });

  it('reads several messages, senders, entries and changes in order, each with its own profile name', () => {
    const body = webhookBody([
      [
        textMessage(ANA, 'Ana', 'uno', at),
        textMessage('18295550200', 'Beto', 'dos', at),
        reaction(ANA, 'Ana', 'wamid.X', '❤️'),
      ],
      [
        location('18495550300', 'Carla', { latitude: 1, longitude: 2 }),
        status('wamid.NUESTRO', 'read', [], { timestamp: T }),
      ],
    ]);
    const parsed = parseWebhook(body);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.messages.map((message) => [message.from, message.profileName, message.type])).toEqual([
      [ANA, 'Ana', 'text'],
      ['18295550200', 'Beto', 'text'],
      [ANA, 'Ana', 'reaction'],
      ['18495550300', 'Carla', 'location'],
    ]);
    expect(parsed.statuses.map((item) => item.status)).toEqual(['read']);
  });

  it('gives no profile name when contacts[] does not name the sender', () => {
    const body = webhookBody([textMessage(ANA, 'Ana', 'hola')]) as any;
    body.entry[0].changes[0].value.contacts = [{ wa_id: '1999', profile: { name: 'Otro' } }];
    expect(parseWebhook(body).messages[0]!.profileName).toBeNull();
  });
});

describe('parseWebhook: statuses', () => {
  it('reads sent, delivered, read and failed with its errors', () => {
    const parsed = parseWebhook(
      webhookBody([
        status('wamid.A', 'sent', [], { timestamp: T, recipient: ANA }),
        status('wamid.A', 'delivered', [], { timestamp: T + 1, recipient: ANA }),
        status('wamid.A', 'read', [], { timestamp: T + 2, recipient: ANA }),
        status(
          'wamid.B',
          'failed',
          [{ code: 131047, title: 'Re-engagement message', details: 'More than 24 hours have passed' }],
          {
            timestamp: T + 3,
            recipient: ANA,
          },
        ),
      ]),
    );
    expect(parsed.skipped).toEqual([]);
    expect(parsed.statuses).toEqual([
      {
        wamid: 'wamid.A',
        status: 'sent',
        timestamp: new Date(T * 1000),
        recipient: ANA,
        phoneNumberId: '106540352242922',
        errors: [],
      },
      {
        wamid: 'wamid.A',
        status: 'delivered',
        timestamp: new Date((T + 1) * 1000),
        recipient: ANA,
        phoneNumberId: '106540352242922',
        errors: [],
      },
      {
        wamid: 'wamid.A',
        status: 'read',
        timestamp: new Date((T + 2) * 1000),
        recipient: ANA,
        phoneNumberId: '106540352242922',
        errors: [],
      },
      {
        wamid: 'wamid.B',
        status: 'failed',
        timestamp: new Date((T + 3) * 1000),
        recipient: ANA,
        phoneNumberId: '106540352242922',
        errors: [
          {
            code: 131047,
            title: 'Re-engagement message',
            message: 'Re-engagement message',
            details: 'More than 24 hours have passed',
          },
        ],
      },
    ]);
    expect(STATUS_LABELS).toEqual({ sent: 'Enviado', delivered: 'Entregado', read: 'Leído' });
    expect(parsed.statuses.map(statusText)).toEqual([
      'Enviado',
      'Entregado',
      'Leído',
      'No se pudo entregar: pasaron más de 24 horas desde el último mensaje del cliente; hace falta una plantilla',
    ]);
    expect(statusText({ status: 'failed', errors: [] })).toBe(
      'No se pudo entregar: error desconocido de WhatsApp',
    );
    expect(
      statusText({ status: 'failed', errors: [{ code: 131999, title: 'Nuevo', message: '', details: '' }] }),
    ).toBe('No se pudo entregar: Nuevo');
  });

  it('reads the errors of the change itself', () => {
    const body = webhookBody([]) as any;
    body.entry[0].changes[0].value.errors = [
      { code: 131000, title: 'Something went wrong', message: 'x', error_data: { details: 'y' } },
      { title: 'sin código' },
    ];
    const parsed = parseWebhook(body);
    expect(parsed.errors).toEqual([
      { code: 131000, title: 'Something went wrong', message: 'x', details: 'y' },
    ]);
    expect(parsed.skipped).toEqual([
      { where: 'entry[0].changes[0].value.errors[1]', reason: 'error sin código' },
    ]);
  });
});

describe('parseWebhook: what it skips', () => {
  it('gives empty lists for a body that is not a WhatsApp payload, or is empty', () => {
    for (const body of [
      null,
      undefined,
      42,
      'texto',
      [],
      {},
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account' },
    ]) {
      const parsed = parseWebhook(body);
      expect(parsed.messages).toEqual([]);
      expect(parsed.statuses).toEqual([]);
    }
    expect(parseWebhook({ object: 'whatsapp_business_account', entry: [] })).toEqual({
      messages: [],
      statuses: [],
      errors: [],
      skipped: [],
    });
    expect(parseWebhookBytes(Buffer.from('{no es json')).messages).toEqual([]);
    expect(parseWebhookBytes(Buffer.from([0xff, 0xfe, 0x7b])).skipped).toEqual([
      { where: '(cuerpo)', reason: 'no es JSON' },
    ]);
  });

  it('skips and reports malformed messages, statuses, changes and entries, keeping the rest', () => {
    const good = textMessage(ANA, 'Ana', 'bien', at);
    const body = webhookBody([
      [
        rawMessage(ANA, 'Ana', { from: ANA, id: 'wamid.1', timestamp: String(T), type: 'text' }),
        good,
        rawMessage(ANA, 'Ana', {
          from: 'no-es-numero',
          id: 'wamid.2',
          timestamp: String(T),
          type: 'text',
          text: { body: 'x' },
        }),
        rawMessage(ANA, 'Ana', {
          from: ANA,
          id: 'wamid.3',
          timestamp: 'ayer',
          type: 'text',
          text: { body: 'x' },
        }),
        rawMessage(ANA, 'Ana', {
          from: ANA,
          id: 'wamid.4',
          timestamp: String(T),
          type: 'image',
          image: { caption: 'sin id' },
        }),
        rawMessage(ANA, 'Ana', {
          from: ANA,
          id: 'wamid.5',
          timestamp: String(T),
          type: 'location',
          location: { latitude: 200, longitude: 0 },
        }),
        rawMessage(ANA, 'Ana', {
          from: ANA,
          id: 'wamid.6',
          timestamp: String(T),
          type: 'reaction',
          reaction: {},
        }),
        rawMessage(ANA, 'Ana', {
          from: ANA,
          id: 'wamid.7',
          timestamp: String(T),
          type: 'interactive',
          interactive: { type: 'list_reply' },
        }),
        { status: { id: 'wamid.S', status: 'played', timestamp: String(T), recipient_id: ANA } },
        status('wamid.OK', 'delivered', [], at),
      ],
    ]) as any;
    body.entry.push({ id: 'x' }, 'basura');
    body.entry[0].changes.push(
      { field: 'messages', value: { messages: [] } },
      { field: 'account_update', value: {} },
    );
    const parsed = parseWebhook(body);
    expect(parsed.messages.map((message) => message.text)).toEqual(['bien']);
    expect(parsed.statuses.map((item) => item.wamid)).toEqual(['wamid.OK']);
    const where = parsed.skipped.map((piece) => piece.where);
    expect(where).toEqual([
      'entry[0].changes[0].value.messages[0]',
      'entry[0].changes[0].value.messages[2]',
      'entry[0].changes[0].value.messages[3]',
      'entry[0].changes[0].value.messages[4]',
      'entry[0].changes[0].value.messages[5]',
      'entry[0].changes[0].value.messages[6]',
      'entry[0].changes[0].value.messages[7]',
      'entry[0].changes[0].value.statuses[0]',
      'entry[0].changes[1].value',
      'entry[0].changes[2]',
      'entry[1]',
      'entry[2]',
    ]);
    for (const piece of parsed.skipped) expect(piece.reason.length).toBeGreaterThan(0);
    // Nothing of the customers' texts goes into the reasons (they are logged).
    expect(JSON.stringify(parsed.skipped)).not.toContain('sin id');
  });

  it('keeps only the changes for our number when asked', () => {
    const body = webhookBody([[textMessage(ANA, 'Ana', 'nuestro')]], { phoneNumberId: '111' });
    expect(parseWebhook(body, { phoneNumberId: '111' }).messages).toHaveLength(1);
    const other = parseWebhook(body, { phoneNumberId: '222' });
    expect(other.messages).toEqual([]);
    expect(other.skipped).toEqual([{ where: 'entry[0].changes[0]', reason: 'otro número de la empresa' }]);
  });
});
