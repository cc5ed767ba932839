/**
 * Enhancements of the recommendation dialog, which works without this script in current browsers:
 * open it where the browser lacks Invoker Commands, move focus to the result when a choice is made,
 * back to the first choice after "Elegir otro enfoque", and start again at step 1 on every opening.
 *
 * Inlined verbatim by the page (see reveal.ts): plain JavaScript that also type-checks as TypeScript.
 */
// Browsers without Invoker Commands (Safari before 26.2, Firefox before 144): open on click instead.
if (!('commandForElement' in HTMLButtonElement.prototype)) {
  for (const button of document.querySelectorAll('button[command="show-modal"][commandfor]')) {
    button.addEventListener('click', () => {
      const target = document.getElementById(button.getAttribute('commandfor') ?? '');
      if (target instanceof HTMLDialogElement && !target.open) target.showModal();
    });
  }
}

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
