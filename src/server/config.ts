/**
 * Every setting of the site, read once from the environment and validated with zod.
 *
 * This is the only module that reads `process.env` for settings. A bad value stops the process at
 * start with a message that names the variable, instead of failing later on a visitor's request.
 * The company's public details have placeholder defaults so that the site runs with no
 * configuration at all; a real deployment overrides them (see `.env.example` and
 * docs/operations/configuration.md, which documents every setting).
 */
import { z } from 'zod';

z.config(z.locales.es());

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());
const stringWithDefault = (fallback: string) =>
  z.preprocess(emptyToUndefined, z.string().trim().default(fallback));
const urlWithDefault = (fallback: string) =>
  z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).default(fallback));
const emailWithDefault = (fallback: string) => z.preprocess(emptyToUndefined, z.email().default(fallback));
const booleanFlag = (fallback: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => ['1', 'true', 'yes', 'on'].includes(value)),
  );
const integerWithDefault = (fallback: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

/** Host names that are this machine: the only ones `imap://` (no TLS) may name. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * `INBOUND_IMAP_URL`: `imaps://user:password@host:993/INBOX`, or `imap://` to a loopback host only
 * (a password sent in clear over the network is refused at start, not discovered in a packet capture).
 */
const imapUrl = z.preprocess(
  emptyToUndefined,
  z
    .url({ protocol: /^imaps?$/, error: 'debe ser un URL imaps:// (o imap:// hacia 127.0.0.1)' })
    .refine((value) => {
      const url = new URL(value);
      return url.protocol === 'imaps:' || LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.');
    }, 'imap:// (sin TLS) solo se admite hacia este mismo equipo (127.0.0.1, ::1, localhost); usa imaps://')
    .refine(
      (value) => new URL(value).username !== '',
      'debe incluir el usuario (imaps://usuario:contraseña@servidor/INBOX)',
    )
    .optional(),
);

const schema = z
  .object({
    NODE_ENV: z.preprocess(
      emptyToUndefined,
      z.enum(['development', 'production', 'test']).default('production'),
    ),
    HOST: stringWithDefault('127.0.0.1'),
    PORT: integerWithDefault(4321, 0, 65535),
    LOG_LEVEL: z.preprocess(
      emptyToUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),

    DATABASE_URL: stringWithDefault('data/site.db').refine(
      (value) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^postgres(ql)?:\/\//i.test(value),
      'debe ser una ruta de archivo SQLite, un URL file: o un URL postgres://',
    ),

    /** Unset: the address `npm start` serves, from HOST and PORT ({@link defaultSiteUrl}). */
    SITE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
    AUTH_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, 'debe tener al menos 32 caracteres').optional(),
    ),
    ADMIN_EMAILS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('admin@verticeconsultores.com.do,soporte@verticeconsultores.com.do')
        .transform((value) =>
          value
            .split(',')
            .map((item) => item.trim().toLowerCase())
            .filter(Boolean),
        )
        .pipe(z.array(z.email('contiene una dirección de correo no válida')).min(1)),
    ),
    TRUST_PROXY: booleanFlag(false),
    /**
     * After start, recompress at brotli's best quality the built files that took SITE_URL (they are
     * served at a quick setting until then). Test servers turn it off: they live for seconds.
     */
    STATIC_RECOMPRESS: booleanFlag(true),
    /** A staff session not used for this long ends (the 12-hour limit from sign-in holds regardless). */
    STAFF_SESSION_IDLE_MINUTES: integerWithDefault(120, 1, 720),
    /** Every staff account must turn on two-step verification: until it does, staff pages send it to /admin/configuracion#dos-pasos. */
    STAFF_REQUIRE_2FA: booleanFlag(false),
    FORM_RATE_LIMIT: integerWithDefault(5, 0, 1_000_000),
    VISITOR_MAIL_DAILY_CAP: integerWithDefault(500, 0, 1_000_000),
    /** Megabytes of files the public forms may bring in per UTC day, all visitors together; 0: no total. */
    PUBLIC_UPLOAD_DAILY_MB: integerWithDefault(500, 0, 100_000),
    /** Megabytes a second this process reads of posted files, all uploads together (attachments/pace.ts). */
    UPLOAD_MB_PER_SECOND: integerWithDefault(8, 1, 10_000),
    STAFF_DIGEST_INTERVAL_SECONDS: integerWithDefault(900, 1, 86_400),
    AUDIT_RETENTION_DAYS: integerWithDefault(365, 1, 36_500),

    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z.url({ protocol: /^smtps?$/, error: 'debe ser un URL smtp:// o smtps://' }).optional(),
    ),
    MAIL_TRANSPORT: z.preprocess(emptyToUndefined, z.enum(['smtp', 'file', 'emailjs']).optional()),
    MAIL_FROM: stringWithDefault('Vértice Consultores <no-reply@verticeconsultores.com.do>'),
    MAIL_DIR: stringWithDefault('data/mail'),
    FIRST_PASSWORD_FILE: stringWithDefault('data/first-staff-password'),
    STAFF_INBOX: emailWithDefault('soporte@verticeconsultores.com.do'),
    /** The support address customers write to; replies come back to `local+TOKEN@domain` of it. Unset: no inbound mail. */
    INBOUND_ADDRESS: z.preprocess(
      emptyToUndefined,
      z
        .email('debe ser una dirección de correo (soporte@empresa.com.do)')
        .refine(
          (value) => !value.split('@')[0]!.includes('+'),
          'no debe llevar «+»: las respuestas llegan a local+CLAVE@dominio',
        )
        .transform((value) => value.toLowerCase())
        .optional(),
    ),
    INBOUND_IMAP_URL: imapUrl,
    INBOUND_POLL_SECONDS: integerWithDefault(60, 5, 3600),
    /** Unset: `POST /api/inbound-mail` answers 404. */
    INBOUND_WEBHOOK_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, 'debe tener al menos 32 caracteres').optional(),
    ),
    /** Largest mail accepted, in bytes (default 25 MB). */
    INBOUND_MAX_BYTES: integerWithDefault(25 * 1024 * 1024, 64 * 1024, 100 * 1024 * 1024),
    EMAILJS_SERVICE_ID: optionalString,
    EMAILJS_TEMPLATE_ID: optionalString,
    EMAILJS_PUBLIC_KEY: optionalString,
    EMAILJS_PRIVATE_KEY: optionalString,
    EMAILJS_API_URL: urlWithDefault('https://api.emailjs.com'),

    COMPANY_NAME: stringWithDefault('Vértice Consultores'),
    COMPANY_TAGLINE: stringWithDefault('Consultoría Tecnológica de Vanguardia'),
    COMPANY_PHONE: stringWithDefault('+1 809-555-0142'),
    COMPANY_EMAIL: emailWithDefault('contacto@verticeconsultores.com.do'),
    COMPANY_ADDRESS: stringWithDefault(
      'Av. Winston Churchill 1099, Torre Citi, piso 8, Santo Domingo, República Dominicana',
    ),
    COMPANY_SOCIAL_URL: urlWithDefault('https://www.instagram.com/verticeconsultores'),
    WHATSAPP_NUMBER: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default('18095550142')
        .transform((value) => value.replace(/[\s()+-]/g, ''))
        .pipe(z.string().regex(/^\d{8,15}$/, 'debe tener entre 8 y 15 dígitos (con código de país)')),
    ),
    /**
     * WhatsApp Business through Meta's Cloud API (issue 37; src/server/channels/whatsapp/settings.ts).
     * Unset `WHATSAPP_APP_SECRET`: the channel is off and its routes answer 404. Set: every webhook POST
     * is verified with it, and the phone number id, access token and verify token are required.
     */
    WHATSAPP_APP_SECRET: optionalString,
    WHATSAPP_PHONE_NUMBER_ID: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^\d{1,30}$/, 'debe ser el identificador numérico del número en Meta (solo dígitos)')
        .optional(),
    ),
    WHATSAPP_ACCESS_TOKEN: z.preprocess(
      emptyToUndefined,
      z.string().trim().regex(/^\S+$/, 'no debe llevar espacios (solo el token, sin «Bearer»)').optional(),
    ),
    WHATSAPP_VERIFY_TOKEN: optionalString,
    /** Base URL of the Graph API with its version; tests point it at a local stand-in. */
    WHATSAPP_API_URL: urlWithDefault('https://graph.facebook.com/v25.0').transform((value) =>
      value.replace(/\/+$/, ''),
    ),
    /** The approved template a reply goes as past the 24-hour window (its one parameter: the reply link). */
    WHATSAPP_TEMPLATE_REPLY: stringWithDefault('respuesta_incidencia').pipe(
      z
        .string()
        .regex(/^[a-z0-9_]{1,512}$/, 'debe ser el nombre de una plantilla: minúsculas, dígitos y «_»'),
    ),
    WHATSAPP_TEMPLATE_LANGUAGE: stringWithDefault('es').pipe(
      z
        .string()
        .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'debe ser un código de idioma de plantilla (es, es_MX, en_US…)'),
    ),
    BOOKING_URL: urlWithDefault('https://calendly.com/verticeconsultores/presentacion'),
    CONSULTATION_URL: urlWithDefault('https://calendly.com/verticeconsultores/consulta-tecnica'),
    TIENDAO_DEMO_URL: urlWithDefault('https://calendly.com/verticeconsultores/demo-tiendao'),
    ANALYTICS_URL: urlWithDefault('https://analytics.google.com/'),
    VIDEO_ADMCLOUD_ID: stringWithDefault('M7lc1UVf-VE'),
    VIDEO_RESTAURANTPE_ID: stringWithDefault('aqz-KE-bpKQ'),
    VIDEO_ABOUT_SRC: optionalString,
  })
  .superRefine((config, context) => {
    // Both ways in hand mail to the support address's desk: without the address, nothing can open an incident.
    for (const variable of ['INBOUND_IMAP_URL', 'INBOUND_WEBHOOK_SECRET'] as const) {
      if (config[variable] && !config.INBOUND_ADDRESS)
        context.addIssue({
          code: 'custom',
          path: ['INBOUND_ADDRESS'],
          message: `es obligatoria cuando ${variable} está definida`,
        });
    }
    // With the app secret the WhatsApp channel is on: it cannot send, fetch media or answer Meta's
    // subscription check without the other three.
    if (config.WHATSAPP_APP_SECRET)
      for (const variable of [
        'WHATSAPP_PHONE_NUMBER_ID',
        'WHATSAPP_ACCESS_TOKEN',
        'WHATSAPP_VERIFY_TOKEN',
      ] as const) {
        if (!config[variable])
          context.addIssue({
            code: 'custom',
            path: [variable],
            message: 'es obligatoria cuando WHATSAPP_APP_SECRET está definida',
          });
      }
  })
  .transform((config) => ({
    ...config,
    SITE_URL: config.SITE_URL ?? defaultSiteUrl(config.HOST, config.PORT),
  }));

export type Config = z.infer<typeof schema>;

/** Whether a URL's host name is this machine (127.0.0.0/8, ::1, localhost). */
const isLoopbackHost = (hostname: string) =>
  LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/**
 * SITE_URL when it is not set (issue 39, set-up): the address the server listens on, so that another
 * PORT needs nothing else on this machine ('http://127.0.0.1:8080' for PORT=8080). A wildcard HOST
 * (0.0.0.0, ::) is reached at 127.0.0.1; an IPv6 address is written in brackets.
 */
export function defaultSiteUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * The warning `npm start` logs when SITE_URL is set to this machine on another port than PORT: every
 * mail's link and canonical address would lead nowhere (the quick start's trap: PORT=8080 with the
 * SITE_URL the quick start once set, on port 4321). Null when they agree, when SITE_URL is another
 * host (a proxy in front may well listen elsewhere) or when it is not set (it then follows PORT).
 */
export function siteUrlPortWarning(
  env: Record<string, string | undefined>,
  config: Pick<Config, 'SITE_URL' | 'PORT'>,
): string | null {
  if (emptyToUndefined(env.SITE_URL) === undefined) return null;
  const url = new URL(config.SITE_URL);
  if (!isLoopbackHost(url.hostname)) return null;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (port === config.PORT) return null;
  return `SITE_URL (${config.SITE_URL}) names port ${port} of this machine but the server listens on PORT ${config.PORT}: links in mails and pages will lead to port ${port}. Set SITE_URL to the public address, or leave it unset to follow HOST and PORT.`;
}

/** Thrown when the environment holds a bad value; the message names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates an environment object. Exported for tests; the site uses {@link getConfig}. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const variable = issue.path.join('.') || '(entorno)';
      return `  ${variable}: ${issue.message}`;
    });
    throw new ConfigError(`Configuración no válida:\n${lines.join('\n')}`);
  }
  return result.data;
}

const CONFIG_KEY = Symbol.for('vertice.config');
type ConfigHolder = { [CONFIG_KEY]?: Config };

/** The validated settings of this process (parsed on first use, then shared). */
export function getConfig(): Config {
  const holder = globalThis as ConfigHolder;
  holder[CONFIG_KEY] ??= parseConfig(process.env);
  return holder[CONFIG_KEY];
}

/** Which mail transport the settings select (explicit `MAIL_TRANSPORT`, else SMTP when set, else files). */
export function mailTransportKind(config: Config): 'smtp' | 'file' | 'emailjs' {
  return config.MAIL_TRANSPORT ?? (config.SMTP_URL ? 'smtp' : 'file');
}

/** True when the database is PostgreSQL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}
