import { fileSizeText, type AttachmentView } from '../../domain/attachments';
import { attachmentPath } from '../../routes';

export interface AttachmentListProps {
  files: readonly AttachmentView[];
  /** The follow-up link's token: the customer's download links. Without it, the staff's. */
  token?: string;
  /** Staff only: a mail's file that was dropped is named with why ('no se guardó'). */
  showDropped?: boolean;
  /** The list's top margin. */
  className?: string;
}

/**
 * The files of one message, on the follow-up page and on the staff incident page (issue 21): an image
 * as a thumbnail that opens the whole image, any other file as a link with its size. Rendered on the
 * server, no island.
 */
export default function AttachmentList({
  files,
  token,
  showDropped = false,
  className = 'mt-2',
}: AttachmentListProps) {
  const shown = showDropped ? files : files.filter((file) => !file.descartado);
  if (!shown.length) return null;
  return (
    <ul aria-label="Archivos adjuntos" className={`${className} flex flex-wrap gap-2`} data-testid="adjuntos">
      {shown.map((file) =>
        file.descartado ? (
          <li
            key={file.id}
            className="rounded-button border border-dashed border-red-300 bg-red-50 px-3 py-2 text-xs text-red-800"
            data-testid="adjunto-descartado"
          >
            <span className="font-semibold break-all">{file.nombre}</span>: no se guardó ({file.descartado})
          </li>
        ) : (
          <li key={file.id} className="max-w-full">
            <a
              href={attachmentPath(file.id, file.nombre, { token })}
              target="_blank"
              rel="noopener"
              className="flex max-w-full items-center gap-2 rounded-button border border-line bg-white p-1.5 pr-3 text-sm text-brand-800 hover:border-brand-500"
            >
              {file.miniatura ? (
                <img
                  src={attachmentPath(file.id, file.nombre, { token, miniatura: true })}
                  alt=""
                  width={64}
                  height={64}
                  loading="lazy"
                  className="size-16 shrink-0 rounded object-cover"
                />
              ) : (
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0 text-muted">
                  <path
                    d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.6"
                    strokeLinejoin="round"
                  />
                </svg>
              )}
              <span className="min-w-0">
                <span className="block font-semibold break-all">{file.nombre}</span>
                <span className="block text-xs text-muted">
                  {fileSizeText(file.tamano)}
                  <span className="sr-only"> (se abre en una pestaña nueva)</span>
                </span>
              </span>
            </a>
          </li>
        ),
      )}
    </ul>
  );
}
