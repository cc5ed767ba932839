/**
 * The WhatsApp channel's settings (issue 37), taken from the validated config (src/server/config.ts,
 * where the variables are read and checked at start) into one object the channel's pieces receive, so
 * that the Graph client, the webhook and the delivery worker never read `Config` keys of their own.
 *
 * The channel is on exactly when `WHATSAPP_APP_SECRET` is set: without it every webhook POST would go
 * unverified, so {@link whatsappSettings} answers `null` and the routes answer 404.
 */
import type { Config } from '../../config.ts';

export type WhatsAppConfig = Pick<
  Config,
  | 'WHATSAPP_APP_SECRET'
  | 'WHATSAPP_PHONE_NUMBER_ID'
  | 'WHATSAPP_ACCESS_TOKEN'
  | 'WHATSAPP_VERIFY_TOKEN'
  | 'WHATSAPP_API_URL'
  | 'WHATSAPP_TEMPLATE_REPLY'
  | 'WHATSAPP_TEMPLATE_LANGUAGE'
>;

export interface WhatsAppSettings {
  /** The business number's id in Meta's API (`/{phone-number-id}/messages`). */
  phoneNumberId: string;
  /** Bearer token for sending and for media. */
  accessToken: string;
  /** Every webhook POST's `X-Hub-Signature-256` is an HMAC with it. */
  appSecret: string;
  /** What Meta's subscription check (`GET ?hub.verify_token=`) must send. */
  verifyToken: string;
  /** Base URL with the version, no trailing slash (`https://graph.facebook.com/v25.0`). */
  apiUrl: string;
  /** The approved template a reply goes as past the 24-hour window, and its language code. */
  replyTemplate: string;
  templateLanguage: string;
}

/** The Graph API version the default `WHATSAPP_API_URL` names. */
export const DEFAULT_WHATSAPP_API_URL = 'https://graph.facebook.com/v25.0';

/** Thrown when settings put together by hand (not through `parseConfig`) leave the channel half set. */
export class WhatsAppSettingsError extends Error {
  override name = 'WhatsAppSettingsError';
}

/**
 * The channel's settings, or `null` when it is off (`WHATSAPP_APP_SECRET` unset). `parseConfig` already
 * refuses an app secret without the other three; this checks again for a config built some other way.
 */
export function whatsappSettings(config: WhatsAppConfig): WhatsAppSettings | null {
  const appSecret = config.WHATSAPP_APP_SECRET;
  if (!appSecret) return null;
  const missing = (
    ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_VERIFY_TOKEN'] as const
  ).filter((variable) => !config[variable]);
  if (missing.length > 0)
    throw new WhatsAppSettingsError(
      `Configuración no válida: ${missing.join(', ')} es obligatoria cuando WHATSAPP_APP_SECRET está definida`,
    );
  let apiUrl: URL;
  try {
    apiUrl = new URL(config.WHATSAPP_API_URL);
  } catch {
    throw new WhatsAppSettingsError('Configuración no válida: WHATSAPP_API_URL debe ser un URL http(s)');
  }
  if (apiUrl.protocol !== 'https:' && apiUrl.protocol !== 'http:')
    throw new WhatsAppSettingsError('Configuración no válida: WHATSAPP_API_URL debe ser un URL http(s)');
  return {
    phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID!,
    accessToken: config.WHATSAPP_ACCESS_TOKEN!,
    appSecret,
    verifyToken: config.WHATSAPP_VERIFY_TOKEN!,
    apiUrl: config.WHATSAPP_API_URL.replace(/\/+$/, ''),
    replyTemplate: config.WHATSAPP_TEMPLATE_REPLY,
    templateLanguage: config.WHATSAPP_TEMPLATE_LANGUAGE,
  };
}
