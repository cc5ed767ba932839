/** An outcome the staff pages announce: 'ok' as a status, 'error' as an alert. */
export interface LiveOutcome {
  kind: 'ok' | 'error';
  text: string;
}

/**
 * The polite live region under a control, holding its outcome (nothing when `message` is empty), with
 * any extra lines (the client form's warnings) under the text. `compact` for a row's small controls.
 */
export default function LiveMessage({
  message,
  extra,
  compact = false,
}: {
  message: LiveOutcome | null | undefined;
  extra?: React.ReactNode;
  compact?: boolean;
}) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {message ? (
        <div
          role={message.kind === 'error' ? 'alert' : 'status'}
          className={`rounded-button px-3 ${compact ? 'py-1.5 text-xs' : 'py-2 text-sm'} ${message.kind === 'ok' ? 'bg-accent-100 text-accent-700' : 'bg-red-50 text-red-800'}`}
        >
          <p>{message.text}</p>
          {extra}
        </div>
      ) : null}
    </div>
  );
}
