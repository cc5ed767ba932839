/**
 * Addresses and incident numbers kept whole on public pages (issue 39, polish): the browser broke
 * 'contacto@verticeconsultores.co' / 'm.do' (`break-all`) and 'INC-' / '20261207-4637' (after a hyphen).
 */

/**
 * An e-mail address on one line where it fits: an inline block, so the line wraps before it rather
 * than inside it. Narrower than a line it breaks once, before the '@', and never inside a word.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.indexOf('@');
  return (
    <span className="inline-block max-w-full wrap-break-word" data-keep-whole="">
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}

/** An incident number ('INC-20261207-4637', 17 characters: it fits any screen) never split at its hyphens. */
export function IncidentNumber({ numero, className = '' }: { numero: string; className?: string }) {
  return (
    <span className={`whitespace-nowrap ${className}`} data-keep-whole="">
      {numero}
    </span>
  );
}
