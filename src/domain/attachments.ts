/**
 * Files attached to an incident (issue 21, "Attachments"; docs/decisions/0015): the limits and the
 * Spanish words every form and the timeline share. Safe in islands, server and scripts alike.
 */
import { formatNumber } from './numbers.ts';

/** The form field of every form that takes files ('Adjuntar archivos'). */
export const FILES_FIELD = 'archivos';
/** Files one submission may carry. */
export const MAX_FILES = 5;
/** Largest file. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Largest sum of the files of one submission. */
export const MAX_SUBMISSION_BYTES = 20 * 1024 * 1024;

/**
 * The actions whose forms take files: the public ones count against `PUBLIC_UPLOAD_DAILY_MB` and run
 * their anti-abuse checks before a file is kept (src/actions/uploads.ts).
 */
export const UPLOAD_ACTIONS: Readonly<Record<string, 'public' | 'staff'>> = {
  'incidents.create': 'public',
  'incidents.answer': 'public',
  'incidents.addEntry': 'staff',
};

/** The largest body of a form with files: the files and the text fields with their multipart framing. */
export const UPLOAD_BODY_BYTES = MAX_SUBMISSION_BYTES + 1024 * 1024;

/** What the file input offers to pick (a hint to the browser: the server decides by content). */
export const FILE_ACCEPT =
  '.png,.jpg,.jpeg,.webp,.gif,.heic,.heif,.pdf,.txt,.log,.csv,.xlsx,.docx,image/png,image/jpeg,image/webp,image/gif,image/heic,application/pdf,text/plain,text/csv';

/** The hint under every 'Adjuntar archivos'. */
export const FILES_HINT =
  'Hasta 5 archivos de 10 MB como máximo cada uno (20 MB en total): imágenes (PNG, JPG, WebP, GIF, HEIC), PDF, texto (.txt, .log, .csv), Excel (.xlsx) o Word (.docx).';

/** The form field that carries a kept file's reference (src/server/attachments/kept.ts). */
export const KEPT_FIELD = 'archivoConservado';

/** A file a refused try kept for the next (a page's form without JavaScript): its signed reference and what to show. */
export interface KeptFile {
  ref: string;
  nombre: string;
  tamano: number;
}

/** An attachment as the timelines show it (no content). */
export interface AttachmentView {
  id: number;
  /** The file's name as sent, made safe (no folders, no control characters). */
  nombre: string;
  /** Its content type, as sniffed. */
  tipo: string;
  /** Bytes. */
  tamano: number;
  /** An image with a thumbnail. */
  miniatura: boolean;
  /** A file of a mail that was dropped: why, in Spanish (nothing stored). */
  descartado?: string;
}

/** "2,4 MB", "820 KB", "12 bytes". */
export function fileSizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${formatNumber(bytes / (1024 * 1024), 1)} MB`;
}

/** A name safe to store and show: the last part of a path, no control characters, at most 120 characters. */
export function safeFileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f"<>:|?*]/g, '')
    .trim()
    .replace(/^\.+/, '');
  if (!base) return 'archivo';
  if (base.length <= 120) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
  return base.slice(0, 120 - ext.length) + ext;
}

/**
 * The extensions a kept file may carry, by the content type it was sniffed as (the first is the one
 * it is given): a name is never trusted to say what a file is (issue 38, F4).
 */
const EXTENSIONS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'application/pdf': ['pdf'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'text/plain': ['txt', 'log'],
  'text/csv': ['csv'],
};

/**
 * A kept file's name with the extension of the type it was found to be, whatever it was sent as:
 * `factura.jar` found to be DOCX is `factura.docx`, `informe.html` found to be PDF `informe.pdf`; a
 * name whose extension already fits keeps it as written (`FOTO.JPEG`), one without an extension gets
 * it (`acta` → `acta.pdf`, `acta 1.5` → `acta 1.5.pdf`). The name is made safe first
 * ({@link safeFileName}); a type not listed leaves it as it is.
 */
export function fileNameForType(name: string, contentType: string): string {
  const safe = safeFileName(name);
  const allowed = EXTENSIONS_OF_TYPE[contentType.split(';')[0]!.trim().toLowerCase()];
  if (!allowed) return safe;
  const match = /\.([a-z0-9]{1,10})$/i.exec(safe);
  const extension = match?.[1]?.toLowerCase();
  if (extension && allowed.includes(extension)) return safe;
  // Only a last part with a letter is an extension ('acta 1.5' has none).
  const stem = match && /[a-z]/i.test(match[1]!) ? safe.slice(0, match.index) : safe;
  return safeFileName(`${stem || 'archivo'}.${allowed[0]}`);
}

export const ATTACHMENT_MESSAGES = {
  tooMany: `Puedes adjuntar hasta ${MAX_FILES} archivos por envío.`,
  fileTooLarge: (name: string) => `«${name}» supera los 10 MB: no se adjuntó.`,
  totalTooLarge: 'Los archivos suman más de 20 MB. Envía menos archivos o archivos más pequeños.',
  refusedType: (name: string) =>
    `«${name}» no es un tipo de archivo admitido (imágenes, PDF, texto, Excel o Word): no se adjuntó.`,
  empty: (name: string) => `«${name}» está vacío: no se adjuntó.`,
  imageTooLarge: (name: string) =>
    `«${name}» es una imagen de más de 60 megapíxeles: no se adjuntó. Redúcela y vuelve a intentarlo.`,
  dailyBudget:
    'Hoy ya recibimos demasiados archivos. Envía tu mensaje sin archivos, o escríbenos por WhatsApp y te ayudamos.',
} as const;

/**
 * What the browser can tell before sending (the island checks it; the server checks everything again):
 * too many files, one too large (named), too much together. Undefined when the choice is fine.
 */
export function pickedFilesProblem(files: ReadonlyArray<{ name: string; size: number }>): string | undefined {
  const picked = files.filter((file) => file.name);
  if (picked.length > MAX_FILES) return ATTACHMENT_MESSAGES.tooMany;
  const large = picked.filter((file) => file.size > MAX_FILE_BYTES);
  if (large.length) return large.map((file) => ATTACHMENT_MESSAGES.fileTooLarge(file.name)).join(' ');
  if (picked.reduce((sum, file) => sum + file.size, 0) > MAX_SUBMISSION_BYTES)
    return ATTACHMENT_MESSAGES.totalTooLarge;
  return undefined;
}

/**
 * Whether a refusal's message is about the files (the island, which gets no fields with a handler's
 * refusal, marks 'Adjuntar archivos' with it).
 */
export function isFilesMessage(message: string): boolean {
  return (
    message.includes('no se adjuntó') ||
    message === ATTACHMENT_MESSAGES.tooMany ||
    message === ATTACHMENT_MESSAGES.totalTooLarge ||
    message === ATTACHMENT_MESSAGES.dailyBudget
  );
}

/** A refusal's messages by field (a `FormRefusal`'s `fields`: one string each) as the forms read them. */
export function fieldMessages(fields: unknown): Record<string, string[]> | undefined {
  if (!fields || typeof fields !== 'object') return undefined;
  const entries = Object.entries(fields as Record<string, unknown>).flatMap(
    ([name, value]): Array<[string, string[]]> =>
      typeof value === 'string'
        ? [[name, [value]]]
        : Array.isArray(value)
          ? [[name, value.filter((item) => typeof item === 'string')]]
          : [],
  );
  return entries.length ? Object.fromEntries(entries) : undefined;
}
