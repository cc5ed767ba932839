import { describe, expect, it } from 'vitest';
import { ConfigError, mailTransportKind, parseConfig, siteUrlPortWarning } from '../../src/server/config.ts';

describe('parseConfig', () => {
  it('runs with no configuration at all, on placeholder company details', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(4321);
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.DATABASE_URL).toBe('data/site.db');
    expect(config.ADMIN_EMAILS).toHaveLength(2);
    expect(config.FORM_RATE_LIMIT).toBe(5);
    expect(config.VISITOR_MAIL_DAILY_CAP).toBe(500);
    expect(config.PUBLIC_UPLOAD_DAILY_MB).toBe(500);
    expect(config.STAFF_DIGEST_INTERVAL_SECONDS).toBe(900);
    expect(config.AUDIT_RETENTION_DAYS).toBe(365);
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.WHATSAPP_NUMBER).toMatch(/^\d+$/);
    expect(config.COMPANY_NAME.length).toBeGreaterThan(0);
    expect(mailTransportKind(config)).toBe('file');
  });

  it('treats empty strings as unset', () => {
    expect(parseConfig({ PORT: '', SMTP_URL: '' }).PORT).toBe(4321);
  });

  it('normalises lists, flags and numbers', () => {
    const config = parseConfig({
      ADMIN_EMAILS: ' Ana@Example.com , luis@example.com ',
      TRUST_PROXY: 'yes',
      FORM_RATE_LIMIT: '0',
      WHATSAPP_NUMBER: '+1 (809) 555-0100',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(config.ADMIN_EMAILS).toEqual(['ana@example.com', 'luis@example.com']);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.FORM_RATE_LIMIT).toBe(0);
    expect(config.WHATSAPP_NUMBER).toBe('18095550100');
    expect(mailTransportKind(config)).toBe('smtp');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SITE_URL', 'not a url'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['ADMIN_EMAILS', 'admin@example.com,no-es-correo'],
    ['DATABASE_URL', 'mysql://localhost/site'],
    ['TRUST_PROXY', 'maybe'],
    ['WHATSAPP_NUMBER', '12'],
    ['AUTH_SECRET', 'short'],
    ['MAIL_TRANSPORT', 'pigeon'],
    ['VISITOR_MAIL_DAILY_CAP', '-1'],
    ['VISITOR_MAIL_DAILY_CAP', 'muchos'],
    ['PUBLIC_UPLOAD_DAILY_MB', '-1'],
    ['PUBLIC_UPLOAD_DAILY_MB', '100001'],
    ['PUBLIC_UPLOAD_DAILY_MB', '2.5'],
    ['STAFF_DIGEST_INTERVAL_SECONDS', '0'],
    ['AUDIT_RETENTION_DAYS', '0'],
    ['AUDIT_RETENTION_DAYS', '1.5'],
  ])('fails naming %s when it is %j', (variable, value) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [variable]: value })).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it('leaves inbound mail off by default, with its poll interval and size limit', () => {
    const config = parseConfig({});
    expect(config.INBOUND_ADDRESS).toBeUndefined();
    expect(config.INBOUND_IMAP_URL).toBeUndefined();
    expect(config.INBOUND_WEBHOOK_SECRET).toBeUndefined();
    expect(config.INBOUND_POLL_SECONDS).toBe(60);
    expect(config.INBOUND_MAX_BYTES).toBe(25 * 1024 * 1024);
  });

  it('reads the inbound settings: the address in lower case, imaps:// anywhere, imap:// to this machine', () => {
    const secret = 'x'.repeat(32);
    const config = parseConfig({
      INBOUND_ADDRESS: 'Soporte@Vertice.example',
      INBOUND_IMAP_URL: 'imaps://soporte%40vertice.example:p%40ss@imap.vertice.example:993/INBOX',
      INBOUND_POLL_SECONDS: '5',
      INBOUND_WEBHOOK_SECRET: secret,
      INBOUND_MAX_BYTES: '1048576',
    });
    expect(config).toMatchObject({
      INBOUND_ADDRESS: 'soporte@vertice.example',
      INBOUND_POLL_SECONDS: 5,
      INBOUND_WEBHOOK_SECRET: secret,
      INBOUND_MAX_BYTES: 1048576,
    });
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      const url = `imap://soporte:clave@${host}:1143/INBOX`;
      expect(
        parseConfig({ INBOUND_ADDRESS: 'soporte@vertice.example', INBOUND_IMAP_URL: url }).INBOUND_IMAP_URL,
      ).toBe(url);
    }
    expect(parseConfig({ INBOUND_POLL_SECONDS: '3600' }).INBOUND_POLL_SECONDS).toBe(3600);
  });

  it.each([
    ['INBOUND_ADDRESS', { INBOUND_ADDRESS: 'soporte' }],
    ['INBOUND_ADDRESS', { INBOUND_ADDRESS: 'soporte+x@vertice.example' }],
    [
      'INBOUND_IMAP_URL',
      {
        INBOUND_ADDRESS: 'soporte@vertice.example',
        INBOUND_IMAP_URL: 'imap://soporte:clave@imap.vertice.example/INBOX',
      },
    ],
    [
      'INBOUND_IMAP_URL',
      { INBOUND_ADDRESS: 'soporte@vertice.example', INBOUND_IMAP_URL: 'https://imap.vertice.example/INBOX' },
    ],
    [
      'INBOUND_IMAP_URL',
      { INBOUND_ADDRESS: 'soporte@vertice.example', INBOUND_IMAP_URL: 'imaps://imap.vertice.example/INBOX' },
    ],
    ['INBOUND_ADDRESS', { INBOUND_IMAP_URL: 'imaps://soporte:clave@imap.vertice.example/INBOX' }],
    ['INBOUND_ADDRESS', { INBOUND_WEBHOOK_SECRET: 'x'.repeat(32) }],
    ['INBOUND_POLL_SECONDS', { INBOUND_POLL_SECONDS: '4' }],
    ['INBOUND_POLL_SECONDS', { INBOUND_POLL_SECONDS: '3601' }],
    [
      'INBOUND_WEBHOOK_SECRET',
      { INBOUND_ADDRESS: 'soporte@vertice.example', INBOUND_WEBHOOK_SECRET: 'x'.repeat(31) },
    ],
    ['INBOUND_MAX_BYTES', { INBOUND_MAX_BYTES: 'mucho' }],
    ['INBOUND_MAX_BYTES', { INBOUND_MAX_BYTES: '0' }],
  ])('fails naming %s for %j', (variable, env) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it('accepts SQLite paths, file: URLs and PostgreSQL URLs', () => {
    for (const url of [
      'data/site.db',
      '/var/lib/site.db',
      'file:data/site.db',
      'postgres://u@h/db',
      'postgresql://h/db',
    ]) {
      expect(parseConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
  });
});

describe('SITE_URL and PORT (issue 39, set-up)', () => {
  it('defaults SITE_URL to the address HOST and PORT serve when it is unset', () => {
    expect(parseConfig({}).SITE_URL).toBe('http://127.0.0.1:4321');
    expect(parseConfig({ PORT: '8080' }).SITE_URL).toBe('http://127.0.0.1:8080');
    expect(parseConfig({ PORT: '8080', SITE_URL: '' }).SITE_URL).toBe('http://127.0.0.1:8080');
    expect(parseConfig({ HOST: 'localhost', PORT: '3000' }).SITE_URL).toBe('http://localhost:3000');
    expect(parseConfig({ HOST: '0.0.0.0', PORT: '3000' }).SITE_URL).toBe('http://127.0.0.1:3000');
    expect(parseConfig({ HOST: '::', PORT: '3000' }).SITE_URL).toBe('http://[::1]:3000');
    expect(parseConfig({ PORT: '8080', SITE_URL: 'https://www.example.do' }).SITE_URL).toBe(
      'https://www.example.do',
    );
  });

  it('warns when SITE_URL names this machine on another port than PORT', () => {
    const warning = (env: Record<string, string>) => siteUrlPortWarning(env, parseConfig(env));
    expect(warning({ PORT: '8080', SITE_URL: 'http://127.0.0.1:4321' })).toMatch(
      /SITE_URL \(http:\/\/127\.0\.0\.1:4321\) names port 4321 .* PORT 8080/,
    );
    expect(warning({ PORT: '8080', SITE_URL: 'http://localhost' })).toMatch(/names port 80 /);
    expect(warning({ PORT: '8080', SITE_URL: 'http://[::1]:4321' })).toMatch(/PORT 8080/);
    // They agree, SITE_URL follows PORT, or it is a public address (a proxy may listen elsewhere).
    expect(warning({ PORT: '8080', SITE_URL: 'http://127.0.0.1:8080' })).toBeNull();
    expect(warning({ PORT: '8080' })).toBeNull();
    expect(warning({ PORT: '8080', SITE_URL: 'https://www.verticeconsultores.com.do' })).toBeNull();
  });
});
