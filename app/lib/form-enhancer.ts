// The little a page served without the framework (`plainFormPage`: sign-in and
// invitation) still gets from JavaScript, as one inline script allowed by the
// response's CSP nonce. The forms themselves are plain posts the server
// validates, so everything here is an extra (docs/decisions/028):
// - a posted form's button shows its pending label ("Signing In...") and the
//   form refuses a second post (a double click), until the browser shows the
//   answer or brings the page back from its back-forward cache;
// - the flash toast's dismiss button, which does nothing without JavaScript
//   and is therefore hidden until this script runs;
// - links marked data-replace (the Sign In / Sign Up tabs) replace the history
//   entry, as the framework's <Link replace> did;
// - after a refused post, the focus goes to the first refused field unless the
//   form's own error took it (autofocus).
// Written as a plain string, not a function's source: a bundler may rewrite a
// function (helpers such as __name) into something the browser does not have.
export const FORM_ENHANCER = `(() => {
const d = document;
d.addEventListener('submit', (event) => {
  const form = event.target;
  if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
  if (form.dataset.pending) { event.preventDefault(); return; }
  form.dataset.pending = '1';
  const button = event.submitter || form.querySelector('[data-pending-label]');
  if (!button || !button.dataset.pendingLabel) return;
  button.dataset.idleLabel = button.textContent;
  button.textContent = button.dataset.pendingLabel;
  button.setAttribute('aria-disabled', 'true');
});
addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const form of d.querySelectorAll('form[data-pending]')) delete form.dataset.pending;
  for (const button of d.querySelectorAll('[data-idle-label]')) {
    button.textContent = button.dataset.idleLabel;
    button.removeAttribute('aria-disabled');
    delete button.dataset.idleLabel;
  }
});
d.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const dismiss = target && target.closest('[data-dismiss-toast]');
  if (dismiss) { dismiss.closest('[data-toast-type]').remove(); return; }
  const link = target && target.closest('a[data-replace]');
  if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  location.replace(link.href);
});
for (const button of d.querySelectorAll('[data-dismiss-toast]')) button.hidden = false;
if (!d.querySelector('[role=alert][autofocus]')) {
  const refused = d.querySelector('form [aria-invalid=true]');
  if (refused) refused.focus();
}
})();`;
