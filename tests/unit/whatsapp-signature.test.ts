import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signatureFor,
  verifySignature,
  verifySubscription,
} from '../../src/server/channels/whatsapp/signature.ts';
import { metaJson, signedWebhook, textMessage, webhookBody } from '../support/meta-standin.ts';

const SECRET = 'app-secret-de-prueba-0123456789';
const body = webhookBody([
  textMessage('18095550100', 'María Peña', 'La señal del módem se cae, ¿qué hago? 😕'),
]);

describe('verifySignature (X-Hub-Signature-256)', () => {
  it('verifies a Spanish body as Meta sends it, with its non-ASCII escaped as \\uXXXX', () => {
    const { bytes, signature } = signedWebhook(body, SECRET);
    expect(bytes.toString('latin1')).toContain('Pe\\u00f1a');
    expect(bytes.toString('latin1')).toContain('\\ud83d\\ude15');
    expect(bytes.every((byte) => byte < 0x80)).toBe(true);
    expect(signature).toBe(`sha256=${createHmac('sha256', SECRET).update(bytes).digest('hex')}`);
    expect(verifySignature(bytes, signature, SECRET)).toBe(true);
    expect(signatureFor(bytes, SECRET)).toBe(signature);
  });

  it('is taken over the raw bytes: the same JSON re-serialised (UTF-8 ñ instead of \\u00f1) does not verify', () => {
    const { bytes, signature } = signedWebhook(body, SECRET);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8'))), 'utf8');
    expect(reserialised.toString('utf8')).toContain('Peña');
    expect(verifySignature(reserialised, signature, SECRET)).toBe(false);
  });

  it('fails for one changed byte, a wrong secret, or an empty secret', () => {
    const { bytes, signature } = signedWebhook(body, SECRET);
    for (const index of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[index] = changed[index]! ^ 0x01;
      expect(verifySignature(changed, signature, SECRET)).toBe(false);
    }
    expect(verifySignature(bytes, signature, `${SECRET}x`)).toBe(false);
    expect(verifySignature(bytes, signatureFor(bytes, ''), '')).toBe(false);
  });

  it('fails for a missing or odd header, without throwing', () => {
    const { bytes, signature } = signedWebhook(body, SECRET);
    const hex = signature.slice('sha256='.length);
    const flipLast = `sha256=${hex.slice(0, -1)}${hex.at(-1) === '0' ? '1' : '0'}`;
    const flipFirst = `sha256=${hex[0] === '0' ? '1' : '0'}${hex.slice(1)}`;
    for (const header of [
      undefined,
      null,
      '',
      hex,
      `sha1=${hex}`,
      `sha256=${hex.slice(0, 63)}`,
      `sha256=${hex}00`,
      `sha256=${'z'.repeat(64)}`,
      `sha256= ${hex}`,
      flipLast,
      flipFirst,
      [signature],
    ]) {
      expect(verifySignature(bytes, header as string | undefined, SECRET)).toBe(false);
    }
    // What Node hands over is trimmed of surrounding spaces, and hex case does not matter.
    expect(verifySignature(bytes, ` ${signature} `, SECRET)).toBe(true);
    expect(verifySignature(bytes, `sha256=${hex.toUpperCase()}`, SECRET)).toBe(true);
  });

  it('verifies an empty body and a body of any size', () => {
    const empty = new Uint8Array();
    expect(verifySignature(empty, signatureFor(empty, SECRET), SECRET)).toBe(true);
    const big = Buffer.from(metaJson({ texto: 'ñ'.repeat(200_000) }));
    expect(verifySignature(big, signatureFor(big, SECRET), SECRET)).toBe(true);
  });
});

describe('verifySubscription (the GET check)', () => {
  const token = 'token-de-verificacion';

  it('answers the challenge when the mode is subscribe and the token matches', () => {
    const query = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.verify_token': token,
      'hub.challenge': '1158201444',
    });
    expect(verifySubscription(query, token)).toBe('1158201444');
    expect(
      verifySubscription(
        { 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': 'abc' },
        token,
      ),
    ).toBe('abc');
  });

  it('answers null for a wrong or missing token, another mode, or no challenge', () => {
    const ok = { 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '42' };
    expect(verifySubscription({ ...ok, 'hub.verify_token': `${token}x` }, token)).toBeNull();
    expect(verifySubscription({ ...ok, 'hub.verify_token': token.slice(1) }, token)).toBeNull();
    expect(verifySubscription({ 'hub.mode': 'subscribe', 'hub.challenge': '42' }, token)).toBeNull();
    expect(verifySubscription({ ...ok, 'hub.mode': 'unsubscribe' }, token)).toBeNull();
    expect(verifySubscription({ ...ok, 'hub.challenge': '' }, token)).toBeNull();
    expect(verifySubscription({ 'hub.mode': 'subscribe', 'hub.verify_token': token }, token)).toBeNull();
    expect(verifySubscription({ ...ok, 'hub.verify_token': ['a', token] }, token)).toBeNull();
    // An unset token on our side never matches, not even an empty one sent.
    expect(verifySubscription({ ...ok, 'hub.verify_token': '' }, '')).toBeNull();
  });
});
