/**
 * '¿Te resultó útil?' in place (issue 23): the article's vote form is sent with fetch and the page
 * goes to its `#gracias` fragment, whose thank-you the CSS shows (`:target`) as after the form's own
 * answer without JavaScript. If the request fails the form is sent the plain way.
 *
 * Inlined verbatim in the help article (src/lib/page-scripts.ts), so no script file is downloaded:
 * plain JavaScript that also type-checks as TypeScript (no type annotations).
 */
{
  const form = document.querySelector('form[data-util]');
  if (form instanceof HTMLFormElement) {
    let plain = false;
    form.addEventListener('submit', (event) => {
      if (plain) return;
      event.preventDefault();
      const submitter = event.submitter;
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(form, submitter)) body.append(name, String(value));
      fetch(form.action, { method: 'POST', body, headers: { Accept: 'application/json' } })
        .then((response) => {
          if (!response.ok) throw new Error(String(response.status));
          location.replace('#gracias');
          document.getElementById('gracias')?.focus();
        })
        .catch(() => {
          plain = true;
          form.requestSubmit(submitter instanceof HTMLElement ? submitter : null);
        });
    });
  }
}
