/**
 * Polish for the recommendation dialog, which works without this script: move focus to the result
 * when a choice is made, back to the first choice after "Elegir otro enfoque", and start again at
 * step 1 every time the dialog is reopened.
 *
 * Inlined verbatim by the page (see reveal.ts): plain JavaScript that also type-checks as TypeScript.
 */
for (const dialog of document.querySelectorAll('dialog.reco')) {
  const form = dialog.querySelector('form');
  if (!form) continue;
  const radios = () => form.querySelectorAll('input[type="radio"]');
  form.addEventListener('change', () => {
    const title = dialog.querySelector('.reco-result-title');
    if (title instanceof HTMLElement) title.focus();
  });
  form.addEventListener('reset', () => {
    // The reset event comes before the radios are cleared: focus once step 1 is visible again.
    requestAnimationFrame(() => {
      const first = radios()[0];
      if (first instanceof HTMLElement) first.focus();
    });
  });
  dialog.addEventListener('close', () => {
    for (const radio of radios()) if (radio instanceof HTMLInputElement) radio.checked = false;
  });
}
