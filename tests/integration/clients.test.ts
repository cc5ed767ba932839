import { describe, expect, it } from 'vitest';
import { clientInputSchema } from '../../src/domain/forms/client.ts';
import { createClient, listClients } from '../../src/server/clients/index.ts';
import { ClientNotFoundError, sendWelcome, type WelcomeMailData } from '../../src/server/clients/welcome.ts';
import { describeEachEngine } from '../support/db.ts';

const base = {
  nombreRepresentante: 'Carmen Rodríguez',
  telefono: '8095550142',
  tipoProyecto: 'Implementación AdmCloud',
};
const alamos = {
  ...base,
  razonSocial: 'Farmacia Los Álamos SRL',
  email: 'Carmen@LosAlamos.com.do',
  rnc: '101850043',
};

describeEachEngine('clients', (database) => {
  it('creates clients as pendiente with server time and a normalised phone, and searches them', async () => {
    const { db } = database();
    const now = new Date('2025-03-01T15:00:00.000Z');
    const { client, warnings } = await createClient(db, alamos, now);
    expect(client).toMatchObject({
      estadoProyecto: 'pendiente',
      fechaRegistro: now.toISOString(),
      telefono: '+1 809-555-0142',
      email: 'carmen@losalamos.com.do',
      correoBienvenidaEnviado: false,
    });
    expect(warnings).toEqual([]);
    const second = await createClient(db, {
      ...base,
      razonSocial: 'Colmado Don Pepe',
      email: 'pepe@example.com',
      rnc: '101850042',
    });
    expect(second.warnings[0]).toMatch(/dígito verificador/);
    expect((await listClients(db)).map((item) => item.razonSocial)).toEqual([
      'Colmado Don Pepe',
      'Farmacia Los Álamos SRL',
    ]);
    expect((await listClients(db, 'alamos')).map((item) => item.razonSocial)).toEqual([
      'Farmacia Los Álamos SRL',
    ]);
    expect((await listClients(db, 'PEPE@')).map((item) => item.razonSocial)).toEqual(['Colmado Don Pepe']);
    expect((await listClients(db, '10185004')).length).toBe(2);
    expect(await listClients(db, 'nadie')).toEqual([]);
  });

  it('marks the welcome mail sent only after a successful send, and shares one send between concurrent calls', async () => {
    const { db } = database();
    const { client } = await createClient(db, alamos);
    const refused = async () => {
      throw new Error('550 mailbox unavailable');
    };
    await expect(sendWelcome(db, client.id, refused)).rejects.toThrow('550');
    expect((await listClients(db, 'alamos'))[0]!.correoBienvenidaEnviado).toBe(false);

    const sent: WelcomeMailData[] = [];
    const deliver = async (data: WelcomeMailData) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sent.push(data);
    };
    const [a, b] = await Promise.all([
      sendWelcome(db, client.id, deliver),
      sendWelcome(db, client.id, deliver),
    ]);
    expect(a.correoBienvenidaEnviado && b.correoBienvenidaEnviado).toBe(true);
    expect(sent).toEqual([
      {
        nombreRepresentante: 'Carmen Rodríguez',
        email: 'carmen@losalamos.com.do',
        razonSocial: 'Farmacia Los Álamos SRL',
        tipoProyecto: 'Implementación AdmCloud',
      },
    ]);
    await sendWelcome(db, client.id, deliver);
    expect(sent).toHaveLength(1);
    expect((await listClients(db, 'alamos'))[0]!.correoBienvenidaEnviado).toBe(true);
    await expect(sendWelcome(db, 999_999, deliver)).rejects.toThrow(ClientNotFoundError);
  });
});

describe('add-client form rules', () => {
  it('answers every missing, blank or malformed field in Spanish, as a form post arrives (empty fields as null)', () => {
    const result = clientInputSchema.safeParse({
      razonSocial: null,
      nombreRepresentante: '   ',
      telefono: undefined,
      email: 'ana@colmado',
      rnc: '1'.repeat(41),
      tipoProyecto: 'Tiendao',
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(messages).toEqual({
      razonSocial: 'Este campo es obligatorio.',
      nombreRepresentante: 'Este campo es obligatorio.',
      telefono: 'Este campo es obligatorio.',
      email: 'Correo electrónico no válido.',
      rnc: 'Máximo 40 caracteres.',
    });
  });
});
