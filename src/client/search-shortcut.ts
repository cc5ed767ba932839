/**
 * The staff frame's search box (issue 22): the `/` key focuses it, as in GitHub, Zammad or Gmail,
 * unless the key is typed into a field (a text box, a text area, a select, editable content) or with
 * a modifier. Without JavaScript the box is still a plain form that submits with Enter.
 */
const NOT_TEXT = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'file',
  'range',
  'color',
  'image',
]);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  if (isTyping(event.target)) return;
  const box = document.getElementById('buscar-global');
  if (!(box instanceof HTMLInputElement)) return;
  event.preventDefault();
  box.focus();
  box.select();
});

export {};
