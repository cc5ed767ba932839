/**
 * Packages the server needs for a few requests only, loaded on first use instead of at start: sharp
 * (uploaded images, logos, social cards), nodemailer (the first mail sent) and qrcode (two-step
 * sign-in enrolment). Together they cost about a third of a second of CPU to load, which every start
 * (a deploy, a restart, each test server) paid for nothing. `import()` loads the same ES module build
 * the rest of the server and Astro's bundle load, never a second CommonJS copy beside it.
 */
type Sharp = typeof import('sharp').default;
type Nodemailer = typeof import('nodemailer').default;
type QRCode = typeof import('qrcode');

let sharp: Promise<Sharp> | undefined;
let nodemailer: Promise<Nodemailer> | undefined;
let qrcode: Promise<QRCode> | undefined;

export const loadSharp = (): Promise<Sharp> => (sharp ??= import('sharp').then((module) => module.default));
export const loadNodemailer = (): Promise<Nodemailer> =>
  (nodemailer ??= import('nodemailer').then((module) => module.default));
export const loadQRCode = (): Promise<QRCode> =>
  (qrcode ??= import('qrcode').then((module) => (module as { default?: QRCode }).default ?? module));
