import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.ts';
import {
  DEFAULT_WHATSAPP_API_URL,
  whatsappSettings,
  WhatsAppSettingsError,
} from '../../src/server/channels/whatsapp/settings.ts';

const ON = {
  WHATSAPP_APP_SECRET: 'app-secret',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBA',
  WHATSAPP_VERIFY_TOKEN: 'verifica-esto',
};

describe('WhatsApp settings', () => {
  it('leave the channel off with no app secret, whatever else is set, and keep WHATSAPP_NUMBER', () => {
    const config = parseConfig({});
    expect(config.WHATSAPP_API_URL).toBe('https://graph.facebook.com/v25.0');
    expect(DEFAULT_WHATSAPP_API_URL).toBe(config.WHATSAPP_API_URL);
    expect(config.WHATSAPP_TEMPLATE_REPLY).toBe('respuesta_incidencia');
    expect(config.WHATSAPP_TEMPLATE_LANGUAGE).toBe('es');
    expect(config.WHATSAPP_NUMBER).toBe('18095550142');
    expect(whatsappSettings(config)).toBeNull();
    expect(whatsappSettings(parseConfig({ ...ON, WHATSAPP_APP_SECRET: '' }))).toBeNull();
    expect(whatsappSettings(parseConfig({ WHATSAPP_PHONE_NUMBER_ID: '1234' }))).toBeNull();
  });

  it('turn it on with the app secret and the other three', () => {
    const settings = whatsappSettings(
      parseConfig({
        ...ON,
        WHATSAPP_API_URL: 'http://127.0.0.1:9999/v25.0/',
        WHATSAPP_TEMPLATE_REPLY: 'respuesta_soporte',
        WHATSAPP_TEMPLATE_LANGUAGE: 'es_MX',
      }),
    );
    expect(settings).toEqual({
      phoneNumberId: '106540352242922',
      accessToken: 'EAAGm0PX4ZCpsBA',
      appSecret: 'app-secret',
      verifyToken: 'verifica-esto',
      apiUrl: 'http://127.0.0.1:9999/v25.0',
      replyTemplate: 'respuesta_soporte',
      templateLanguage: 'es_MX',
    });
  });

  it.each(['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_VERIFY_TOKEN'])(
    'stop the start naming %s when the app secret is set without it',
    (variable) => {
      const env = { ...ON, [variable]: '' };
      expect(() => parseConfig(env)).toThrow(ConfigError);
      expect(() => parseConfig(env)).toThrow(
        new RegExp(`${variable}: es obligatoria cuando WHATSAPP_APP_SECRET está definida`),
      );
    },
  );

  it('name every missing one at once', () => {
    expect(() => parseConfig({ WHATSAPP_APP_SECRET: 'x' })).toThrow(
      /WHATSAPP_PHONE_NUMBER_ID[\s\S]*WHATSAPP_ACCESS_TOKEN[\s\S]*WHATSAPP_VERIFY_TOKEN/,
    );
  });

  it.each([
    ['WHATSAPP_API_URL', 'ftp://graph.facebook.com/v25.0'],
    ['WHATSAPP_API_URL', 'no es un url'],
    ['WHATSAPP_PHONE_NUMBER_ID', '+1 809 555'],
    ['WHATSAPP_ACCESS_TOKEN', 'Bearer EAAG'],
    ['WHATSAPP_TEMPLATE_REPLY', 'Respuesta Incidencia'],
    ['WHATSAPP_TEMPLATE_LANGUAGE', 'español'],
  ])('fail naming %s when it is %j', (variable, value) => {
    const env = { ...ON, [variable]: value };
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it('refuse a config put together by hand that leaves the channel half set', () => {
    const config = { ...parseConfig({}), WHATSAPP_APP_SECRET: 'x', WHATSAPP_VERIFY_TOKEN: 'v' };
    expect(() => whatsappSettings(config)).toThrow(WhatsAppSettingsError);
    expect(() => whatsappSettings(config)).toThrow(
      /WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_ACCESS_TOKEN es obligatoria/,
    );
    expect(() => whatsappSettings({ ...parseConfig(ON), WHATSAPP_API_URL: 'file:///etc' })).toThrow(
      /WHATSAPP_API_URL/,
    );
  });
});
