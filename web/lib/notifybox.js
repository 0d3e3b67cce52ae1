// SPDX-License-Identifier: MIT
// The room panel's notice box (#notify-box): for a seated player, when the
// server sends notices (hello's `notify`), a push button for this browser,
// a webhook form, an off button and a line saying where notices go now.
// The server holds the truth; the box shows its last `notify` reply and
// what went wrong in its own error line, never in the page's banner.

import { t } from './i18n.js';
import { checkWebhook, noticeSummary, pushSupported, replyError, subscribePush } from './notify.js';

export class NotifyBox {
  // els: { box, summary, push, pushHint, form, webhook, off, error }
  // request(op, args): the connection's request (never rejects).
  constructor(els, request, win = window) {
    this.els = els;
    this.request = request;
    this.win = win;
    this.offer = null; // hello's `notify`, or null when the server sends none
    this.key = null; // "ROOM/seat" the box is for
    this.asked = null; // the key the summary was asked for
    this.busy = false;
    this.last = null; // the last `notify` the server sent for this seat
    els.push.addEventListener('click', () => this.subscribe());
    els.off.addEventListener('click', () => this.send({ off: true }, els.off));
    els.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.saveWebhook();
    });
    els.webhook.addEventListener('input', () => this.clearError());
  }

  // hello's `notify` member: {webhook: true, push: KEY} or absent.
  setOffer(notify) {
    this.offer = notify && typeof notify === 'object' ? notify : null;
  }

  // After a reconnect the seat is bound anew: ask again once it is.
  forget() {
    this.asked = null;
  }

  // Shows or hides the box for the page's room and seat; asks the server
  // where the seat's notices go the first time a seat is shown while the
  // connection is up.
  update({ room, seat, phase, online }) {
    const seated = room !== null && seat !== null && (phase === 'room' || phase === 'game');
    const shown = seated && this.offer !== null;
    const key = seated ? `${room}/${seat}` : null;
    if (key !== this.key) {
      this.key = key;
      this.asked = null;
      this.clearError();
      this.setSummary(null);
      this.els.webhook.value = '';
    }
    this.els.box.hidden = !shown;
    if (!shown) return;
    const offered = typeof this.offer.push === 'string' && this.offer.push !== '';
    this.els.push.hidden = !(offered && pushSupported(this.win));
    this.els.pushHint.hidden = !(offered && !pushSupported(this.win));
    this.els.form.hidden = this.offer.webhook === false;
    if (online && this.asked !== key) {
      this.asked = key;
      this.send({}, null);
    }
  }

  setSummary(notify) {
    this.last = notify;
    this.els.summary.textContent = notify ? noticeSummary(notify) : t('Asking the server where notices go…');
    this.els.box.dataset.webhook = notify?.webhook || '';
    this.els.box.dataset.push = String(notify?.push ?? '');
    // The field shows the seat's webhook, unless the player is typing there.
    if (notify && document.activeElement !== this.els.webhook) this.els.webhook.value = notify.webhook || '';
  }

  // Writes the summary again in the language of the moment (an error
  // line stays as it was said).
  relabel() {
    if (!this.busy) this.setSummary(this.last);
  }

  showError(text, field = null) {
    this.els.error.textContent = text;
    this.els.error.hidden = false;
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  clearError() {
    this.els.error.hidden = true;
    this.els.error.textContent = '';
    this.els.webhook.removeAttribute('aria-invalid');
  }

  // Disables the box's buttons while a request is out. A disabled button
  // loses the keyboard focus: it is given back when they are enabled.
  setBusy(busy) {
    this.busy = busy;
    const active = document.activeElement;
    if (busy) this.focused = this.els.box.contains(active) ? active : null;
    for (const b of [this.els.push, this.els.off, this.els.form.querySelector('button')]) b.disabled = busy;
    this.els.box.setAttribute('aria-busy', String(busy));
    if (!busy && this.focused && !this.els.box.hidden && (!active || active === document.body)) {
      this.focused.focus();
    }
    if (!busy) this.focused = null;
  }

  // One `notify` op; `control` is the button that sent it (null: the box
  // asked by itself, and a failure says so more quietly).
  async send(args, control) {
    if (this.busy) return false;
    const key = this.key;
    this.setBusy(true);
    const r = await this.request('notify', args);
    this.setBusy(false);
    if (key !== this.key) return false; // left the seat meanwhile
    if (r.ok) {
      this.clearError();
      this.setSummary(r.notify);
      return true;
    }
    if (r.error?.code === 'disconnected') {
      this.asked = null;
      this.showError(t('Not connected: try again once the page is back online.'));
    } else {
      this.showError(replyError(r), control === this.els.form ? this.els.webhook : null);
    }
    return false;
  }

  async saveWebhook() {
    const { url, error } = checkWebhook(this.els.webhook.value);
    if (error) return this.showError(error, this.els.webhook);
    this.clearError();
    return this.send({ webhook: url }, this.els.form);
  }

  async subscribe() {
    if (this.busy || !this.offer) return;
    const key = this.key;
    this.clearError();
    this.setBusy(true);
    this.els.summary.textContent = t('Setting up notices in this browser…');
    const r = await subscribePush(this.win, this.offer.push, this.request);
    this.setBusy(false);
    if (key !== this.key) return;
    if (r.ok) {
      this.setSummary(r.notify);
      return;
    }
    // The summary goes back to what the server last said.
    this.setSummary(this.last);
    this.showError(r.message);
  }
}
